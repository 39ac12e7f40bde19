// Alerts: the rules with their state (ok, firing) and last value, created, edited, paused
// and deleted; a rule's firing history, each change with the notification it sent and
// when its destination took it. A rule's destination is any loaded alert sink
// (GET /v2/alerts/destination-kinds), its destinationConfig a form drawn from the sink's
// schema (config_form.js); a sink that needs no address takes no destination URL.
// URL: ?rule=<id>&new=1&edit=<id>
import { api } from '../api.js';
import { ConfigFields, configErrors, readConfig, schemaFields } from '../config_form.js';
import { ago, dateTime, metricValue } from '../format.js';
import { html, useState } from '../lib.js';
import { setQuery } from '../router.js';
import { Empty, ErrorBox, Icon, JsonView, Spinner, useAsync } from '../ui.js';
import {
  ActionResult, Badge, DeleteButton, FormCard, FormField, formValues, useAction, usePolling, when,
} from '../manage.js';

const METRICS = [
  ['event_count', 'Events'], ['error_count', 'Errors'], ['error_rate', 'Error rate (0–1)'], ['cost_usd', 'Cost (USD)'], ['tokens', 'Tokens'],
  ['latency_p50_ms', 'Latency p50 (ms)'], ['latency_p95_ms', 'Latency p95 (ms)'], ['latency_p99_ms', 'Latency p99 (ms)'],
];
const OPERATORS = [['gt', '>'], ['gte', '≥'], ['lt', '<'], ['lte', '≤'], ['eq', '=']];
const opSign = (op) => (OPERATORS.find((o) => o[0] === op) || [op, op])[1];
const metricLabel = (m) => (METRICS.find((x) => x[0] === m) || [m, m])[1];

function condition(r) {
  return `${metricLabel(r.metric).replace(/ \(.*\)$/, '')} ${opSign(r.operator)} ${metricValue(r.metric, r.threshold)} over ${r.windowMins} min`;
}

function RuleState({ r }) {
  if (!r.enabled) return html`<${Badge} kind="wait">Paused</${Badge}>`;
  if (r.state === 'firing') return html`<${Badge} kind="err">Firing</${Badge}>`;
  if (!r.lastEvaluatedAt) return html`<${Badge} kind="wait">Not evaluated yet</${Badge}>`;
  return html`<${Badge} kind="ok">OK</${Badge}>`;
}

function filters(r, names) {
  const out = [];
  if (r.appId) out.push(`app ${names.apps[r.appId] || r.appId}`);
  if (r.environmentId) out.push(`env ${names.envs[r.environmentId] || r.environmentId}`);
  for (const k of ['model', 'service', 'release']) if (r[k]) out.push(`${k} ${r[k]}`);
  return out.length ? out.map((c) => html`<span class="chip chip-sm">${c}</span>`) : html`<span class="muted">all events</span>`;
}

// What the host sets in a sink's configuration from the rule itself: never drawn.
const HOST_KEYS = ['destination', 'url', 'allowPrivateAddresses'];
// A sink reads its address from the rule's destination when its schema requires one.
const needsAddress = (kind) => !!kind && (kind.requiredKeys || []).some((k) => k === 'destination' || k === 'url');

function AlertForm({ rule, refs, kinds, onDone }) {
  const action = useAction();
  const [sinkName, setSinkName] = useState(rule?.destinationType || '');
  const sink = kinds.find((k) => k.name === sinkName);
  const sameSink = !!rule && rule.destinationType === sinkName;
  const submit = (form) => action.run(async () => {
    const v = formValues(form);
    const body = {
      name: v.name, metric: v.metric, operator: v.operator, threshold: Number(v.threshold), windowMins: Number(v.windowMins || 5), enabled: v.enabled,
      appId: v.appId ? Number(v.appId) : null, environmentId: v.environmentId ? Number(v.environmentId) : null,
      model: v.model || null, service: v.service || null, release: v.release || null,
      destination: v.destinationType && v.destination ? v.destination : null, destinationType: v.destinationType || null,
    };
    if (v.destinationType) {
      const config = readConfig(form, sink?.configSchema,
        sameSink ? { omit: HOST_KEYS, editing: true, stored: rule.destinationConfig || {}, secretKeys: rule.secretConfigKeys || [] } : { omit: HOST_KEYS });
      if (config !== undefined) body.destinationConfig = config;
      else if (rule && !sameSink) body.destinationConfig = null;
    } else if (rule) {
      body.destinationConfig = null;
    }
    if (!rule) for (const k of Object.keys(body)) if (body[k] === null) delete body[k];
    const saved = rule ? await api.patch(`/v2/alerts/${rule.alertRuleId}`, body) : await api.post('/v2/alerts', body);
    onDone(saved);
  });
  const pick = (name, label, list) => html`<${FormField} id=${`al-${name}`} label=${label}><select id=${`al-${name}`} name=${name}>
    <option value="">any</option>${list.map((x) => html`<option value=${x.id} selected=${String(rule?.[name]) === String(x.id)}>${x.name}</option>`)}</select></${FormField}>`;
  const text = (name, label) => html`<${FormField} id=${`al-${name}`} label=${label}>
    <input id=${`al-${name}`} name=${name} placeholder="any" defaultValue=${rule?.[name] || ''} autocomplete="off" /></${FormField}>`;
  return html`<${FormCard} id="alert-form" title=${rule ? `Edit alert "${rule.name}"` : 'New alert rule'} submitLabel=${rule ? 'Save' : 'Create alert'}
      action=${action} onSubmit=${submit} onCancel=${() => onDone(null)}>
    <${FormField} id="al-name" label="Name"><input id="al-name" name="name" required maxlength="120" defaultValue=${rule?.name || ''} autocomplete="off" /></${FormField}>
    <${FormField} id="al-metric" label="Metric"><select id="al-metric" name="metric">
      ${METRICS.map(([k, l]) => html`<option value=${k} selected=${(rule?.metric || 'error_rate') === k}>${l}</option>`)}</select></${FormField}>
    <${FormField} id="al-operator" label="Operator"><select id="al-operator" name="operator">
      ${OPERATORS.map(([k, l]) => html`<option value=${k} selected=${(rule?.operator || 'gt') === k}>${l} (${k})</option>`)}</select></${FormField}>
    <${FormField} id="al-threshold" label="Threshold"><input id="al-threshold" name="threshold" type="number" step="any" required defaultValue=${rule?.threshold ?? ''} /></${FormField}>
    <${FormField} id="al-window" label="Window (minutes)"><input id="al-window" name="windowMins" type="number" min="1" max="1440" step="1" defaultValue=${rule?.windowMins ?? 5} /></${FormField}>
    <p class="ff-wide hint form-section">Filters: only matching events count; all optional.</p>
    ${pick('appId', 'App', refs.apps)}
    ${pick('environmentId', 'Environment', refs.envs)}
    ${text('model', 'Model')}
    ${text('service', 'Service')}
    ${text('release', 'Release')}
    <p class="ff-wide hint form-section">Destination: each change of state (firing, resolved) is sent here.</p>
    <${FormField} id="al-destinationType" label="Destination type" hint=${sink?.description}><select id="al-destinationType" name="destinationType" onChange=${(ev) => setSinkName(ev.target.value)}>
      <option value="" selected=${!sinkName}>none</option>
      ${kinds.map((k) => html`<option value=${k.name} selected=${sinkName === k.name}>${k.name}</option>`)}</select></${FormField}>
    ${sinkName && (needsAddress(sink) || rule?.destination) ? html`<${FormField} id="al-destination" label="Destination URL">
      <input id="al-destination" name="destination" type="url" required=${needsAddress(sink)} defaultValue=${rule?.destination || ''} autocomplete="off" /></${FormField}>` : null}
    ${sinkName ? html`<${ConfigFields} key=${sinkName} idPrefix="al-config" schema=${sink?.configSchema} omit=${HOST_KEYS} label="Destination settings"
      config=${sameSink ? rule.destinationConfig || {} : {}} secretKeys=${sameSink ? rule.secretConfigKeys || [] : []}
      errors=${configErrors(action.error, schemaFields(sink?.configSchema, HOST_KEYS).fields.map((f) => f.key), 'body.destinationConfig')} />` : null}
    <div class="ff"><span class="ff-label">State</span><label class="check"><input type="checkbox" name="enabled" defaultChecked=${rule ? rule.enabled : true} />Enabled</label></div>
  </${FormCard}>`;
}

function History({ rule }) {
  const history = useAsync(() => api.get(`/v2/alerts/${rule.alertRuleId}/events`, { limit: 100 }), [rule.alertRuleId]);
  usePolling(history.reload, 2000, [rule.alertRuleId]);
  const rows = history.data?.data || [];
  return html`<section class="card" aria-labelledby="hist-title">
    <div class="card-head"><h2 class="card-title" id="hist-title">History of "${rule.name}"</h2>
      <span class="muted small">${condition(rule)}${rule.destination ? ` → ${rule.destinationType} ${rule.destination}` : ', no destination'}</span></div>
    <${ErrorBox} error=${history.error} />
    ${rows.length ? html`<div class="table-wrap"><table class="table dense history" aria-label="Alert history">
      <thead><tr><th scope="col">Time</th><th scope="col">State</th><th scope="col" class="num">Value</th><th scope="col" class="num">Threshold</th>
        <th scope="col">Delivered</th><th scope="col">Notification sent</th></tr></thead>
      <tbody>${rows.map((e) => html`<tr key=${e.id} data-state=${e.state}>
        <td>${when(e.createdAt)}</td>
        <td>${e.state === 'firing' ? html`<${Badge} kind="err">firing</${Badge}>` : html`<${Badge} kind="ok">${e.state}</${Badge}>`}</td>
        <td class="num">${metricValue(rule.metric, e.value)}</td><td class="num">${metricValue(rule.metric, e.threshold)}</td>
        <td data-testid="delivered">${e.deliveredAt ? when(e.deliveredAt) : rule.destination ? html`<span class="muted">pending</span>` : html`<span class="muted">no destination</span>`}</td>
        <td class="notification"><details><summary>${e.notification ? `${e.notification.state}: ${e.notification.metric} ${metricValue(e.notification.metric, e.notification.value)}` : 'JSON'}</summary><${JsonView} value=${e.notification} /></details></td>
      </tr>`)}</tbody></table></div>`
    : history.loading && !history.data ? html`<div class="center"><${Spinner} /></div>`
    : html`<${Empty} title="Never fired"><p>Each change of state (ok → firing, firing → resolved) is listed here with the notification it sent.</p></${Empty}>`}
  </section>`;
}

async function loadAlerts() {
  const [rules, apps, envs, kinds] = await Promise.all([api.get('/v2/alerts'), api.get('/apps'), api.get('/environments'),
    api.get('/v2/alerts/destination-kinds')]);
  const refs = { apps: apps.map((a) => ({ id: a.id, name: a.name })), envs: (envs.data || envs).map((e) => ({ id: e.id, name: e.name })) };
  const names = Object.fromEntries(['apps', 'envs'].map((k) => [k, Object.fromEntries(refs[k].map((x) => [x.id, x.name]))]));
  return { rules: rules.data, refs, names, kinds: kinds.data };
}

export function AlertsView({ route }) {
  const q = route.query;
  const data = useAsync(loadAlerts, []);
  usePolling(data.reload, 2000);
  const action = useAction();
  const d = data.data;
  const editing = q.edit && d ? d.rules.find((r) => r.alertRuleId === q.edit) : null;
  const selected = q.rule && d ? d.rules.find((r) => r.alertRuleId === q.rule) : null;
  const formOpen = !!(q.new || editing);
  const done = (saved) => {
    setQuery(saved && !editing ? { new: '', edit: '', rule: saved.alertRuleId } : { new: '', edit: '' });
    if (saved) data.reload();
  };
  const toggle = (r) => action.run(async () => {
    await api.patch(`/v2/alerts/${r.alertRuleId}`, { enabled: !r.enabled });
    data.reload();
  }, `"${r.name}" ${r.enabled ? 'paused' : 'enabled'}.`);
  const remove = (r) => action.run(async () => {
    await api.del(`/v2/alerts/${r.alertRuleId}`);
    setQuery({ rule: '' });
    data.reload();
  }, `"${r.name}" and its history deleted.`);
  const open = (r) => setQuery({ rule: r.alertRuleId }, { replace: false });
  return html`<div class="page">
    <header class="page-head"><h1>Alerts</h1>
      <div class="head-right">${formOpen ? null : html`<button type="button" class="btn btn-primary" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New alert</button>`}</div></header>
    ${data.error && !d ? html`<${ErrorBox} error=${data.error} />` : !d ? html`<div class="center"><${Spinner} /></div>` : html`<div class="stack-12">
      ${formOpen ? html`<${AlertForm} key=${editing ? editing.alertRuleId : 'new'} rule=${editing} refs=${d.refs} kinds=${d.kinds} onDone=${done} />` : null}
      <${ActionResult} action=${action} />
      ${d.rules.length ? html`<div class="table-wrap"><table class="table clickable" aria-label="Alert rules">
        <thead><tr><th scope="col">Name</th><th scope="col">Condition</th><th scope="col">Filters</th><th scope="col">State</th>
          <th scope="col" class="num">Last value</th><th scope="col">Evaluated</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>${d.rules.map((r) => html`<tr key=${r.alertRuleId} data-alert-id=${r.alertRuleId} class=${selected === r ? 'selected' : ''} tabindex="0"
            aria-current=${selected === r ? 'true' : undefined} onClick=${() => open(r)} onKeyDown=${(e) => { if (e.key === 'Enter' && e.target === e.currentTarget) open(r); }}>
          <td>${r.name}</td><td>${condition(r)}</td><td>${filters(r, d.names)}</td><td><${RuleState} r=${r} /></td>
          <td class="num">${metricValue(r.metric, r.lastValue)}</td>
          <td>${r.lastEvaluatedAt ? html`<span title=${dateTime(r.lastEvaluatedAt)}>${ago(r.lastEvaluatedAt)}</span>` : html`<span class="muted">–</span>`}</td>
          <td class="num actions" onClick=${(e) => e.stopPropagation()}>
            <button type="button" class="btn btn-sm" onClick=${() => toggle(r)} aria-label=${`${r.enabled ? 'Pause' : 'Enable'} ${r.name}`}>${r.enabled ? 'Pause' : 'Enable'}</button>
            <button type="button" class="btn btn-sm" onClick=${() => setQuery({ edit: r.alertRuleId })} aria-label=${`Edit ${r.name}`}>Edit</button>
            <${DeleteButton} what=${`the alert "${r.name}"`} consequence="Its history goes with it." onDelete=${() => remove(r)} />
          </td></tr>`)}</tbody></table></div>`
        : formOpen ? null : html`<div class="card"><${Empty} title="No alert rule yet"><p>An alert watches a metric (errors, error rate, cost, tokens, latency) over a sliding window and notifies a webhook or Slack when it crosses a threshold, and again when it resolves.</p>
          <button type="button" class="btn btn-primary" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New alert</button></${Empty}></div>`}
      ${selected ? html`<${History} key=${selected.alertRuleId} rule=${selected} />`
        : d.rules.length ? html`<p class="muted small">Select a rule to see its firing history and the notifications it sent.</p>` : null}
    </div>`}
  </div>`;
}
