// Validates real HTTP traffic against the daemon's OpenAPI document: each request (path
// parameters, query, headers, body) against the operation it reaches, each answer (its
// status declared, its media type declared, its body against that schema, its required
// headers present). Generic: it knows no route; everything comes from the document.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const DOC_ID = 'openapi.json';

function pointer(parts) {
  return '#/' + parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

export class ContractValidator {
  constructor(doc) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(doc, DOC_ID);
    this.compiled = new Map();
    this.violations = [];
    this.seen = new Set();  // operationIds answered at least once
    this.count = 0;
    // Templates, most literal segments first (as the router picks).
    this.routes = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const segments = path.split('/').filter(Boolean);
      const literals = segments.filter((s) => !s.startsWith('{')).length;
      for (const [method, op] of Object.entries(item)) this.routes.push({ path, method, op, segments, literals });
    }
    this.routes.sort((a, b) => b.literals - a.literals);
  }

  schemaAt(parts) {
    const ref = DOC_ID + pointer(parts);
    let v = this.compiled.get(ref);
    if (!v) {
      v = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, v);
    }
    return v;
  }

  // The operation a request reaches, with its path parameters; null when none.
  find(method, pathname) {
    const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
    for (const r of this.routes) {
      if (r.method !== method.toLowerCase()) continue;
      const rest = r.segments.length && /^\{.*\*\}$/.test(r.segments[r.segments.length - 1]);
      if (rest ? parts.length < r.segments.length - 1 : parts.length !== r.segments.length) continue;
      const params = {};
      let ok = true;
      r.segments.forEach((s, i) => {
        if (s.startsWith('{')) params[s.replace(/[{}*]/g, '')] = parts[i];
        else if (s !== parts[i]) ok = false;
      });
      if (ok) return { ...r, params };
    }
    return null;
  }

  fail(where, message) {
    this.violations.push(`${where}: ${message}`);
  }

  // One exchange. req: {method, url, headers (lower-case names), body (string|undefined)};
  // res: {status, headers (lower-case), body (string)}.
  check(req, res) {
    this.count++;
    const url = new URL(req.url);
    const found = this.find(req.method, url.pathname);
    const where = `${req.method} ${url.pathname}${url.search} -> ${res.status}`;
    if (!found) {
      this.fail(where, 'no operation in the document');
      return;
    }
    const { op, path, method } = found;
    this.seen.add(op.operationId);
    // A request the document refuses may be sent on purpose (to see the 4xx): its
    // problems count only when the daemon accepted it (the document is then stricter).
    const problems = [];
    this.checkRequest(problems, found, url, req);
    if (res.status < 400) for (const p of problems) this.fail(where, p);
    this.checkResponse(where, path, method, op, res);
  }

  checkRequest(problems, found, url, req) {
    const { op, path, method } = found;
    const declared = op.parameters || [];
    const inQuery = new Set(declared.filter((p) => p.in === 'query').map((p) => p.name));
    for (const name of new Set(url.searchParams.keys()))
      if (!inQuery.has(name)) problems.push(`query parameter ${name} is not declared`);
    declared.forEach((p, i) => {
      let value;
      if (p.in === 'path') value = found.params[p.name];
      else if (p.in === 'query') value = url.searchParams.get(p.name) ?? undefined;
      else if (p.in === 'header') value = req.headers[p.name.toLowerCase()];
      if (value === undefined) {
        if (p.required) problems.push(`required ${p.in} parameter ${p.name} missing`);
        return;
      }
      const schema = p.schema || {};
      const typed = schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      const v = this.schemaAt(['paths', path, method, 'parameters', i, 'schema']);
      if (!v(typed)) problems.push(`${p.in} parameter ${p.name}=${value}: ${this.ajv.errorsText(v.errors)}`);
    });
    const hasBody = req.body !== undefined && req.body !== '';
    if (!op.requestBody) {
      if (hasBody) problems.push('sends a body the operation does not declare');
      return;
    }
    if (!hasBody) {
      if (op.requestBody.required) problems.push('the operation requires a body; none sent');
      return;
    }
    const type = (req.headers['content-type'] || '').split(';')[0].trim();
    const media = op.requestBody.content[type];
    if (!media) {
      problems.push(`request media type ${type} is not declared`);
      return;
    }
    if (!type.endsWith('json')) return;
    const v = this.schemaAt(['paths', path, method, 'requestBody', 'content', type, 'schema']);
    let parsed;
    try {
      parsed = JSON.parse(req.body);
    } catch {
      return;  // a deliberately broken body: the answer must then be declared (a 400)
    }
    if (!v(parsed)) problems.push(`request body: ${this.ajv.errorsText(v.errors)}`);
  }

  checkResponse(where, path, method, op, res) {
    const code = String(res.status);
    const key = op.responses[code] ? code : op.responses[code[0] + 'XX'] ? code[0] + 'XX' : op.responses.default ? 'default' : null;
    if (!key) {
      this.fail(where, `status ${code} is not declared`);
      return;
    }
    if (res.status >= 500) this.fail(where, `a server error: ${res.body.slice(0, 300)}`);
    const response = op.responses[key];
    if (!res.headers['x-request-id']) this.fail(where, 'no X-Request-Id');
    if (res.status === 401 && !res.headers['www-authenticate']) this.fail(where, '401 without WWW-Authenticate');
    if (res.status === 429 && !res.headers['retry-after']) this.fail(where, '429 without Retry-After');
    if (!response.content) {
      if (res.body) this.fail(where, `a body where ${key} declares none`);
      return;
    }
    if (res.status === 204 || res.status === 304) return;
    const type = (res.headers['content-type'] || '').split(';')[0].trim();
    if (!response.content[type]) {
      this.fail(where, `answer media type "${type}" not declared for ${key} (${Object.keys(response.content)})`);
      return;
    }
    if (!type.endsWith('json') || !res.body) return;
    let parsed;
    try {
      parsed = JSON.parse(res.body);
    } catch (e) {
      this.fail(where, `answer is not JSON: ${e.message}`);
      return;
    }
    const v = this.schemaAt(['paths', path, method, 'responses', key, 'content', type, 'schema']);
    if (!v(parsed)) this.fail(where, `answer body: ${this.ajv.errorsText(v.errors)} in ${res.body.slice(0, 300)}`);
  }

  // A fetch that validates each exchange (the body read as text, returned re-wrapped).
  fetch() {
    return async (input, init = {}) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const body = request.body ? await request.clone().text() : undefined;
      const headers = {};
      request.headers.forEach((v, k) => (headers[k] = v));
      const res = await fetch(request);
      const text = await res.text();
      const resHeaders = {};
      res.headers.forEach((v, k) => (resHeaders[k] = v));
      this.check({ method: request.method, url: request.url, headers, body }, { status: res.status, headers: resHeaders, body: text });
      return new Response(res.status === 204 || res.status === 304 ? null : text, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    };
  }
}
