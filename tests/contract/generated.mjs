// (d) Requests generated from the document (json-schema-faker) for every operation: path
// and query parameters and bodies drawn from their schemas, sent as the instance admin
// acting in its organization. No answer may be a 5xx, and every answer must match the
// document (validator.mjs). Bounded: PER_OPERATION requests per operation, a fixed seed,
// each request cut after a few seconds (streams are checked by their headers only).
// Usage: node generated.mjs <openapi.json> <baseUrl> <admin access token> <admin org id>
import { readFileSync } from 'node:fs';
import { JSONSchemaFaker } from 'json-schema-faker';
import { ContractValidator } from './validator.mjs';

const PER_OPERATION = Number(process.env.AEV_GENERATED_PER_OPERATION || 3);
const [docFile, base, adminToken, adminOrg] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(docFile, 'utf8'));
const v = new ContractValidator(doc);

// A deterministic generator (mulberry32), so a failure can be replayed.
let seed = 0x5eed;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
JSONSchemaFaker.option({ random, alwaysFakeOptionals: false, optionalsProbability: 0.5, maxItems: 3, maxLength: 40, failOnInvalidTypes: false, useExamplesValue: false });

// Local references inlined (json-schema-faker does not read #/components itself).
function inline(schema, depth = 0) {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, depth));
  if (!schema || typeof schema !== 'object') return schema;
  if (schema.$ref) {
    if (depth > 6) return {};
    const target = schema.$ref.replace('#/', '').split('/').reduce((o, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return inline(target, depth + 1);
  }
  const out = {};
  for (const [k, val] of Object.entries(schema)) out[k] = k === 'properties' ? Object.fromEntries(Object.entries(val).map(([p, s]) => [p, inline(s, depth)])) : inline(val, depth);
  return out;
}

const fake = (schema) => JSONSchemaFaker.generate(inline(schema));

async function exchange(method, url, headers, body) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    const res = await fetch(url, { method, headers, body, signal: controller.signal, redirect: 'manual' });
    const resHeaders = {};
    res.headers.forEach((val, k) => (resHeaders[k] = val));
    // A stream is judged by its status and headers; its body never ends.
    const text = (resHeaders['content-type'] || '').startsWith('text/event-stream') ? '' : await res.text();
    return { status: res.status, headers: resHeaders, body: text };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

const started = Date.now();
let sent = 0;
let serverErrors = 0;
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item)) {
    for (let n = 0; n < PER_OPERATION; n++) {
      let target = path;
      const query = new URLSearchParams();
      const headers = { authorization: `Bearer ${adminToken}`, 'x-tenant-id': adminOrg };
      for (const p of op.parameters || []) {
        if (p.in !== 'path' && !p.required && random() < 0.5) continue;
        let value = String(fake(p.schema || { type: 'string' }));
        if (p.in === 'path') {
          if (value === '') value = 'x';
          target = target.replace(`{${p.name}}`, encodeURIComponent(value));
        } else if (p.in === 'query') query.set(p.name, value);
        else if (p.in === 'header' && p.name !== 'x-tenant-id') headers[p.name.toLowerCase()] = value.replace(/[^\x20-\x7e]/g, '');
      }
      let body;
      const json = op.requestBody && op.requestBody.content['application/json'];
      if (json) {
        body = JSON.stringify(fake(json.schema));
        headers['content-type'] = 'application/json';
      }
      const url = `${base}${target}${query.size ? `?${query}` : ''}`;
      let res;
      try {
        res = await exchange(method.toUpperCase(), url, headers, body);
      } catch (e) {
        v.fail(`${method.toUpperCase()} ${target}`, `no answer: ${e.message}`);
        continue;
      }
      sent++;
      if (res.status >= 500) serverErrors++;
      v.check({ method: method.toUpperCase(), url, headers, body }, res);
    }
  }
}
console.log(`${sent} generated requests in ${((Date.now() - started) / 1000).toFixed(1)} s: ${serverErrors} 5xx, ${v.violations.length} violations`);
for (const m of v.violations) console.log(`violation: ${m}`);
process.exit(v.violations.length ? 1 : 0);
