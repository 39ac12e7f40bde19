// A plugin component's per-use configuration (an export destination's `config`, an alert
// rule's `destinationConfig`) drawn from the JSON Schema the kinds routes serve
// (GET /export-destinations/kinds, GET /v2/alerts/destination-kinds): one input per
// top-level property the form can type (string, number, integer, boolean, enum), its
// title as the label and its description and default as the hint, required ones marked.
// Secret keys (writeOnly) are password inputs that are never filled in: "set" when the
// stored configuration has one, and left empty to keep it. Whatever the form cannot type
// (objects, arrays, unions, keys the schema does not name) is edited as JSON in one box.
//
// Inputs are named `cfg:<key>` and `cfg-json`; readConfig() turns them back into the object.
import { html } from './lib.js';

// The one type the form draws a property with, or null (the JSON box takes it).
function fieldKind(prop) {
  if (!prop || typeof prop !== 'object') return null;
  if (Array.isArray(prop.enum) && prop.enum.length && prop.enum.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) return 'enum';
  let { type } = prop;
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== 'null');
    type = real.length === 1 ? real[0] : null;
  }
  if (prop.oneOf || prop.anyOf || prop.allOf || prop.$ref) return null;
  return ['string', 'number', 'integer', 'boolean'].includes(type) ? type : null;
}

const isSecret = (prop) => !!(prop && (prop.writeOnly === true || prop.secret === true));

// {fields: [{key, prop, kind, required, secret}], complex: [key...], drawn: bool}: drawn is
// false when the schema has no properties to draw (then everything is the JSON box).
// `omit`: keys the host sets from the form's own fields (an export destination's
// endpointUrl, an alert rule's destination), never drawn twice.
export function schemaFields(schema, omit = []) {
  const props = schema && typeof schema === 'object' && schema.properties && typeof schema.properties === 'object' ? schema.properties : null;
  if (!props) return { fields: [], complex: [], drawn: false };
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = [];
  const complex = [];
  for (const [key, prop] of Object.entries(props)) {
    if (omit.includes(key)) continue;
    const kind = fieldKind(prop);
    if (kind) fields.push({ key, prop, kind, required: required.has(key), secret: isSecret(prop) });
    else complex.push(key);
  }
  return { fields, complex, drawn: fields.length > 0 };
}

// A problem's errors[] (or a local check's) by config key; '' holds those of the object
// as a whole. A plugin's refusal arrives as one message on body.config ("path must be an
// absolute file path"): when it opens with a property's name it is shown on that field.
export function configErrors(error, keys, prefix = 'body.config') {
  const out = {};
  if (!error) return out;
  if (error.fields) return error.fields;
  const errs = error.problem && Array.isArray(error.problem.errors) ? error.problem.errors : [];
  for (const e of errs) {
    const loc = String(e.location || '');
    if (loc.startsWith(`${prefix}.`)) {
      out[loc.slice(prefix.length + 1)] = e.message;
    } else if (loc === prefix) {
      // The host prefixes it ("exporter "x" of plugin y refused its configuration: path must ...").
      const named = keys.find((k) => new RegExp(`(^|: )${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(String(e.message || '')));
      out[named || ''] = e.message;
    }
  }
  return out;
}

const shown = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

function hintOf(f, setSecrets) {
  const parts = [];
  if (f.prop.description) parts.push(f.prop.description);
  if (f.prop.default !== undefined) parts.push(`Default: ${shown(f.prop.default)}.`);
  if (f.prop.minimum !== undefined || f.prop.maximum !== undefined) {
    parts.push(`${f.prop.minimum ?? '…'} to ${f.prop.maximum ?? '…'}.`);
  }
  if (f.secret) parts.push(setSecrets.includes(f.key) ? 'Set; never shown. Leave empty to keep it.' : 'Write-only: never shown again.');
  return parts.join(' ');
}

function FieldInput({ id, f, value, secretSet, invalid, describedBy }) {
  const common = { id, name: `cfg:${f.key}`, 'aria-invalid': invalid ? 'true' : undefined, 'aria-describedby': describedBy };
  if (f.kind === 'boolean' || f.kind === 'enum') {
    const options = f.kind === 'boolean' ? [true, false] : f.prop.enum;
    const unset = f.prop.default !== undefined ? `Default (${shown(f.prop.default)})` : 'Not set';
    return html`<select ...${common} required=${f.required && f.kind === 'enum'}>
      <option value="" selected=${value === undefined}>${unset}</option>
      ${options.map((o, i) => html`<option value=${String(i)} selected=${value === o}>${shown(o)}</option>`)}</select>`;
  }
  if (f.secret) {
    // Never pre-filled; "set" says one is stored.
    return html`<input ...${common} type="password" autocomplete="new-password" spellcheck="false"
      required=${f.required && !secretSet} placeholder=${secretSet ? 'set (leave empty to keep)' : ''} />`;
  }
  const numeric = f.kind === 'number' || f.kind === 'integer';
  return html`<input ...${common} type=${numeric ? 'number' : f.prop.format === 'uri' ? 'url' : 'text'} autocomplete="off" spellcheck="false"
    step=${f.kind === 'integer' ? '1' : numeric ? 'any' : undefined} min=${numeric ? f.prop.minimum : undefined} max=${numeric ? f.prop.maximum : undefined}
    maxlength=${f.prop.maxLength} required=${f.required} placeholder=${f.prop.default !== undefined ? shown(f.prop.default) : f.prop.examples?.[0] ?? ''}
    defaultValue=${value === undefined ? '' : shown(value)} />`;
}

// The config inputs of one kind. `config`: the stored public object (secrets left out);
// `secretKeys`: the secret keys the stored object has set; `errors`: configErrors().
// `fallbackHint`: the JSON box's hint when the schema draws nothing.
export function ConfigFields({ idPrefix, schema, omit = [], config = {}, secretKeys = [], errors = {}, fallbackHint, label = 'Configuration' }) {
  const { fields, complex, drawn } = schemaFields(schema, omit);
  const typed = new Set(fields.map((f) => f.key));
  const rest = Object.fromEntries(Object.entries(config || {}).filter(([k]) => !typed.has(k)));
  const box = (hint) => html`<div class="ff ff-wide">
    <label for=${`${idPrefix}-json`}>${drawn ? `${label}: other settings (JSON)` : label}</label>
    <textarea id=${`${idPrefix}-json`} name="cfg-json" rows="2" spellcheck="false" autocomplete="off" aria-invalid=${errors[''] ? 'true' : undefined}
      aria-describedby=${`${idPrefix}-json-hint`} defaultValue=${Object.keys(rest).length ? JSON.stringify(rest) : ''}></textarea>
    ${errors[''] ? html`<p class="field-error" role="alert">${errors['']}</p>` : null}
    <p class="hint" id=${`${idPrefix}-json-hint`}>${hint}</p></div>`;
  if (!drawn) return box(fallbackHint || 'A JSON object; this kind declares no settings.');
  return html`<fieldset class="ff ff-wide config-fields" data-testid="config-fields"><legend>${label}</legend>
    <div class="form-grid">
    ${fields.map((f) => {
      const id = `${idPrefix}-${f.key}`;
      const hint = hintOf(f, secretKeys);
      const err = errors[f.key];
      return html`<div class="ff" key=${f.key} data-config-key=${f.key}>
        <label for=${id}>${f.prop.title || f.key}${f.required ? html`<span class="required" aria-hidden="true"> *</span><span class="sr-only"> (required)</span>` : null}
          ${f.secret && secretKeys.includes(f.key) ? html` <span class="chip chip-sm" data-testid="secret-set">set</span>` : null}</label>
        <${FieldInput} id=${id} f=${f} value=${f.secret ? undefined : (config || {})[f.key]} secretSet=${secretKeys.includes(f.key)} invalid=${!!err}
          describedBy=${[err ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined} />
        ${err ? html`<p class="field-error" id=${`${id}-error`} role="alert">${err}</p>` : null}
        ${hint ? html`<p class="hint" id=${`${id}-hint`}>${hint}</p>` : null}
      </div>`;
    })}
    </div>
    ${complex.length || Object.keys(rest).length || errors[''] ? box(`A JSON object with ${complex.length ? `the settings the form does not draw (${complex.join(', ')})` : 'any further settings'}; the fields above win.`) : null}
  </fieldset>`;
}

class ConfigProblem extends Error {
  constructor(fields) {
    super(Object.entries(fields).map(([k, m]) => `${k ? `config.${k}` : 'config'}: ${m}`).join('; '));
    this.fields = fields;
  }
  describe() {
    return this.message;
  }
}

const canonical = (o) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));

// The configuration the form's inputs hold, or undefined when nothing should be sent
// (an edit that changed nothing keeps the stored object, secrets included). Throws a
// problem with per-field messages for input the schema refuses.
export function readConfig(form, schema, { omit = [], editing = false, stored = {}, secretKeys = [] } = {}) {
  const { fields } = schemaFields(schema, omit);
  const problems = {};
  let out = {};
  const jsonBox = form.elements.namedItem('cfg-json');
  const text = jsonBox ? String(jsonBox.value).trim() : '';
  if (text) {
    try {
      out = JSON.parse(text);
      if (!out || typeof out !== 'object' || Array.isArray(out)) throw new Error('not an object');
    } catch {
      problems[''] = 'is not a JSON object, e.g. {"key": "value"}';
      out = {};
    }
  }
  let secretEntered = false;
  for (const f of fields) {
    const el = form.elements.namedItem(`cfg:${f.key}`);
    if (!el) continue;
    const raw = String(el.value);
    if (f.kind === 'boolean' || f.kind === 'enum') {
      if (raw !== '') out[f.key] = (f.kind === 'boolean' ? [true, false] : f.prop.enum)[Number(raw)];
      continue;
    }
    const v = f.secret ? raw : raw.trim();
    if (v === '') continue;
    if (f.kind === 'number' || f.kind === 'integer') {
      const n = Number(v);
      if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n))) problems[f.key] = `must be ${f.kind === 'integer' ? 'a whole number' : 'a number'}`;
      else out[f.key] = n;
    } else {
      out[f.key] = v;
    }
    if (f.secret) secretEntered = true;
  }
  if (Object.keys(problems).length) throw new ConfigProblem(problems);
  if (!editing) return Object.keys(out).length ? out : undefined;
  if (!secretEntered && canonical(out) === canonical(stored || {})) return undefined;
  // The object replaces the stored one whole: a stored secret left empty would be lost.
  const kept = secretKeys.filter((k) => !(k in out) && fields.some((f) => f.key === k));
  if (kept.length) {
    throw new ConfigProblem(Object.fromEntries(kept.map((k) => [k, 'enter it again: changed settings replace the whole configuration, secrets included'])));
  }
  return out;
}
