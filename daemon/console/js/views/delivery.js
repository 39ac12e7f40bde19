// Delivery, in the manner of Svix's portal: webhook endpoints (of every channel) and export
// destinations; create, edit, disable, delete; each one's delivery attempts filtered by
// the daemon by outcome and status class, redelivery of a webhook message, and a destination's test
// call, health (last success, last failure and its reason, given-up batches) and redelivery of its
// given-up batches. A destination's kind is any loaded exporter (GET /export-destinations/kinds);
// its config is a form drawn from the kind's schema (config_form.js). The signing secret is shown once, at
// creation; header values and secret config keys never.
// URL: ?tab=webhooks|exports&ep=<endpoint>&dest=<destination>&new=1&edit=1&outcome=&class=
import { api } from '../api.js';
import { loadChannels } from '../channels.js';
import { ConfigFields, configErrors, readConfig, schemaFields } from '../config_form.js';
import { dateFull, dateTime, ms, num, pct } from '../format.js';
import { html, useMemo, useState } from '../lib.js';
import { href, Link, setQuery } from '../router.js';
import { Empty, ErrorBox, Icon, Select, Spinner, useAsync } from '../ui.js';
import {
  ActionResult, Badge, DeleteButton, Facts, FormCard, FormField, formValues, OnceSecret, splitList, useAction, usePolling, when,
} from '../manage.js';

const ATTEMPT_LIMIT = 200;
const OUTCOMES = [['', 'Any outcome'], ['delivered', 'Delivered'], ['retrying', 'Retrying'], ['failed', 'Failed']];
const CLASSES = [['', 'Any status'], ['2xx', '2xx'], ['3xx', '3xx'], ['4xx', '4xx'], ['5xx', '5xx'], ['none', 'No answer']];
const OUTCOME_KIND = { delivered: 'ok', retrying: 'warn', failed: 'err' };
const SIGNALS = ['traces', 'logs', 'metrics'];
const KIND_LABELS = { otlp: 'OTLP/HTTP', http: 'JSON over HTTP' };
// What the destination's own fields set (the daemon refuses them inside config).
const HOST_KEYS = ['endpointUrl', 'encoding', 'serviceName', 'headers', 'allowPrivateAddresses', 'timeoutMs', 'destinationId', 'orgId', 'destinationName'];
const HEALTH_KIND = { idle: 'wait', ok: 'ok', retrying: 'warn', failing: 'err' };
const HEALTH_LABEL = { idle: 'Idle', ok: 'Healthy', retrying: 'Retrying', failing: 'Failing' };

// The last 24 hours of deliveries (health24h): the success rate, and the last failure
// with its status and reason. Nothing when the daemon does not say.
export function Health24h({ h, full }) {
  if (!h) return null;
  if (!h.deliveries) return html`<span class="muted small" data-testid="health24h">no delivery in 24 h</span>`;
  const rate = h.successRate === null || h.successRate === undefined ? null : h.successRate;
  const kind = rate === null ? 'wait' : rate >= 0.99 ? 'ok' : rate >= 0.9 ? 'warn' : 'err';
  const fail = h.lastFailureAt ? `last failure ${dateTime(h.lastFailureAt)}${h.lastFailureStatus ? ` (HTTP ${h.lastFailureStatus})` : ''}${h.lastFailureReason ? `: ${h.lastFailureReason}` : ''}` : 'no failure';
  return html`<span class="health24h" data-testid="health24h" title=${`${num(h.succeeded)} of ${num(h.deliveries)} delivered in 24 h; ${fail}`}>
    <${Badge} kind=${kind}>${rate === null ? '–' : pct(rate)}</${Badge}>${full ? html` <span class="small">${num(h.succeeded)} of ${num(h.deliveries)} in 24 h · ${fail}</span>` : null}</span>`;
}

function HealthBadge({ health }) {
  if (!health) return null;
  return html`<${Badge} kind=${HEALTH_KIND[health.state] || 'wait'}>${HEALTH_LABEL[health.state] || health.state}</${Badge}>`;
}

// What the kind's configuration schema offers, for the config field's hint.
function configHint(kind) {
  if (!kind || !kind.configSchema || !kind.configSchema.properties) return 'A JSON object; this kind declares no settings.';
  const props = Object.entries(kind.configSchema.properties).map(([name, p]) => {
    const flags = [(kind.requiredKeys || []).includes(name) ? 'required' : '', (kind.secretKeys || []).includes(name) ? 'secret, write-only' : ''].filter(Boolean);
    return `${name}${p.type ? ` (${p.type}${flags.length ? `, ${flags.join(', ')}` : ''})` : ''}${p.description ? `: ${p.description}` : ''}`;
  });
  return `A JSON object of the exporter's settings: ${props.join('; ')}.`;
}

// Every endpoint of the organization in one request (GET /webhooks/endpoints, pages of
// 100), beside the channels that name them.
async function allEndpoints() {
  const out = [];
  for (let page = 1; ; page += 1) {
    const { data, meta } = await api.get('/webhooks/endpoints', { limit: 100, page });
    out.push(...data);
    if (page >= meta.totalPages) return out;
  }
}

async function loadWebhooks() {
  const [{ channels }, endpoints] = await Promise.all([loadChannels(), allEndpoints()]);
  const byId = Object.fromEntries(channels.map((c) => [c.id, c]));
  return { channels, endpoints: endpoints.map((e) => ({ ...e, channel: byId[e.channelId] })) };
}

function EndpointState({ e }) {
  if (e.active && e.failingSince) return html`<${Badge} kind="warn" title=${`Failing since ${e.failingSince}`}>Failing</${Badge}>`;
  if (e.active) return html`<${Badge} kind="ok">Active</${Badge}>`;
  if (e.disabledAt) return html`<${Badge} kind="err" title=${e.disabledReason || ''}>Disabled after failures</${Badge}>`;
  return html`<${Badge} kind="wait">Disabled</${Badge}>`;
}

// ---------------------------------------------------------------- delivery attempts

// A redelivery starts a new series (attempt 1 again) of the same message: the rows say so.
function markRedeliveries(rows) {
  const seen = new Set();
  const out = [];
  for (let i = rows.length - 1; i >= 0; i -= 1) {
    const a = rows[i];
    out.push({ ...a, redelivery: a.webhookId !== undefined && a.attempt === 1 && seen.has(a.webhookId) });
    if (a.webhookId !== undefined) seen.add(a.webhookId);
  }
  return out.reverse();
}

// The daemon filters (outcome, statusClass); the newest ATTEMPT_LIMIT that match are shown.
const attemptQuery = (query) => ({ limit: ATTEMPT_LIMIT, outcome: query.outcome, statusClass: query.class });

function Attempts({ rows: all, error, loading, query, onRedeliver, what }) {
  const shown = useMemo(() => markRedeliveries(all), [all]);
  const filtered = !!(query.outcome || query.class);
  return html`<section class="card" aria-labelledby="attempts-title">
    <div class="card-head">
      <h2 class="card-title" id="attempts-title">Delivery attempts</h2>
      <span class="muted small" data-testid="attempt-count">${shown.length ? `${num(shown.length)}${shown.length === ATTEMPT_LIMIT ? ' newest' : ''} attempt${shown.length === 1 ? '' : 's'}${filtered ? ' matching' : ''}` : ''}</span>
    </div>
    <div class="toolbar toolbar-flat" role="search" aria-label="Attempt filters">
      <${Select} id="att-outcome" label="Outcome" value=${query.outcome || ''} onChange=${(v) => setQuery({ outcome: v })}
        options=${OUTCOMES.map(([value, label]) => ({ value, label }))} />
      <${Select} id="att-class" label="Status class" value=${query.class || ''} onChange=${(v) => setQuery({ class: v })}
        options=${CLASSES.map(([value, label]) => ({ value, label }))} />
    </div>
    <${ErrorBox} error=${error} />
    ${shown.length ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Delivery attempts, scrollable"><table class="table dense attempts" aria-label="Delivery attempts">
      <thead><tr><th scope="col">Time</th>${onRedeliver ? html`<th scope="col">Message</th>` : null}<th scope="col">${what}</th><th scope="col" class="num">Attempt</th><th scope="col">Outcome</th>
        <th scope="col" class="num">Status</th><th scope="col" class="num">Duration</th><th scope="col">Next retry</th><th scope="col">Response</th>
        ${onRedeliver ? html`<th scope="col"><span class="sr-only">Action</span></th>` : null}</tr></thead>
      <tbody>${shown.map((a) => html`<tr key=${a.id} data-attempt-id=${a.id} data-outcome=${a.outcome}>
        <td>${when(a.createdAt)}</td>
        ${onRedeliver ? html`<td class="mono">${a.webhookId}</td>` : null}
        <td class="mono">${a.eventId ?? html`<span class="muted">test</span>`}</td>
        <td class="num">${a.redelivery ? html`<span class="chip chip-sm">redelivery</span> ` : null}${a.attempt}</td>
        <td><${Badge} kind=${OUTCOME_KIND[a.outcome] || 'wait'}>${a.outcome}</${Badge}></td>
        <td class="num mono">${a.statusCode ? a.statusCode : html`<span class="muted" title="No HTTP answer">–</span>`}</td>
        <td class="num">${ms(a.durationMs)}</td>
        <td>${a.nextAttemptAt ? when(a.nextAttemptAt) : html`<span class="muted">–</span>`}</td>
        <td class="excerpt">${a.responseBody ? html`<details><summary class="mono">${a.responseBody.slice(0, 60)}${a.responseBody.length > 60 ? '…' : ''}</summary>
          <pre class="code">${a.responseBody}</pre></details>` : html`<span class="muted">empty</span>`}</td>
        ${onRedeliver ? html`<td class="num"><button type="button" class="btn btn-sm" onClick=${() => onRedeliver(a)}>Redeliver</button></td>` : null}
      </tr>`)}</tbody></table></div>`
    : loading && !all.length ? html`<div class="center"><${Spinner} /></div>`
    : filtered ? html`<${Empty} title="No attempt matches these filters"><p>Clear the outcome or status class filter to see every attempt.</p></${Empty}>`
    : html`<${Empty} title="No delivery attempt yet"><p>Publish an event to a matching channel; attempts appear here within a second or two.</p></${Empty}>`}
  </section>`;
}

// ---------------------------------------------------------------- webhooks

function EndpointForm({ channels, endpoint, onDone }) {
  const action = useAction();
  const editing = !!endpoint;
  const submit = (form) => action.run(async () => {
    const v = formValues(form);
    const body = { url: v.url, description: v.description || '', eventTypes: v.eventTypes ? splitList(v.eventTypes) : null };
    if (!editing) body.channelId = Number(v.channelId);
    const saved = editing ? await api.patch(`/webhooks/endpoints/${endpoint.id}`, body) : await api.post('/webhooks/endpoints', body);
    onDone(saved);
  });
  return html`<${FormCard} id="endpoint-form" title=${editing ? 'Edit endpoint' : 'New webhook endpoint'} submitLabel=${editing ? 'Save' : 'Create endpoint'}
      action=${action} onSubmit=${submit} onCancel=${() => onDone(null)}>
    <${FormField} id="ep-url" label="URL" wide hint="Every event of the channel is POSTed here, signed as Standard Webhooks.">
      <input id="ep-url" name="url" type="url" required placeholder="https://example.com/webhooks" defaultValue=${endpoint?.url || ''} autocomplete="off" /></${FormField}>
    ${editing ? null : html`<${FormField} id="ep-channel" label="Channel">
      <select id="ep-channel" name="channelId" required>${channels.map((c) => html`<option value=${c.id}>${c.appName} / ${c.name}</option>`)}</select></${FormField}>`}
    <${FormField} id="ep-types" label="Event types" hint="Comma-separated; empty: every type.">
      <input id="ep-types" name="eventTypes" placeholder="agent.error, agent.end" defaultValue=${(endpoint?.eventTypes || []).join(', ')} autocomplete="off" /></${FormField}>
    <${FormField} id="ep-description" label="Description">
      <input id="ep-description" name="description" maxlength="500" defaultValue=${endpoint?.description || ''} autocomplete="off" /></${FormField}>
  </${FormCard}>`;
}

function EndpointDetail({ id, data, query, reload }) {
  const endpoint = data.endpoints.find((e) => String(e.id) === String(id));
  // Only ids of this organization's list are asked about (a stale or foreign id is not).
  const attempts = useAsync(() => (endpoint ? api.get(`/webhooks/deliveries/${id}`, attemptQuery(query)) : []),
    [id, !!endpoint, query.outcome, query.class]);
  usePolling(attempts.reload, 2000, [id, query.outcome, query.class]);
  const action = useAction();
  if (!endpoint) return html`<${Empty} title="No such webhook endpoint"><p>It may have been deleted. <${Link} to=${href('/delivery')}>All endpoints</${Link}></p></${Empty}>`;
  const setActive = (active) => action.run(async () => {
    await api.patch(`/webhooks/endpoints/${id}`, { active });
    reload();
  }, active ? 'Enabled: new events are delivered again.' : 'Disabled: pending messages were dropped; new events are not sent.');
  const remove = () => action.run(async () => {
    await api.del(`/webhooks/endpoints/${id}`);
    setQuery({ ep: '' });
    reload();
  });
  const redeliver = (a) => action.run(async () => {
    await api.post(`/webhooks/endpoints/${id}/deliveries/${a.id}/redeliver`, {});
    attempts.reload();
  }, `Message ${a.webhookId} queued again (same webhook-id).`);
  if (query.edit) {
    return html`<${EndpointForm} channels=${data.channels} endpoint=${endpoint} onDone=${(saved) => { setQuery({ edit: '' }); if (saved) reload(); }} />`;
  }
  return html`<div class="stack-12">
    <section class="card" aria-labelledby="ep-title">
      <div class="card-head">
        <div><div class="kicker"><${Link} to=${href('/delivery')}>Webhook endpoints</${Link}> /</div>
          <h2 class="card-title mono" id="ep-title">${endpoint.url}</h2></div>
        <div class="head-right">
          <${EndpointState} e=${endpoint} />
          <button type="button" class="btn btn-sm" onClick=${() => setQuery({ edit: '1' })}>Edit</button>
          <button type="button" class="btn btn-sm" onClick=${() => setActive(!endpoint.active)}>${endpoint.active ? 'Disable' : 'Enable'}</button>
          <${DeleteButton} what=${`the endpoint ${endpoint.url}`} consequence="Its pending deliveries and retries stop; its attempt log goes with it." onDelete=${remove} />
        </div>
      </div>
      <${Facts} rows=${[
        ['Channel', endpoint.channel ? `${endpoint.channel.appName} / ${endpoint.channel.name}` : endpoint.channelId],
        ['Event types', endpoint.eventTypes ? endpoint.eventTypes.map((t) => html`<span class="chip chip-sm">${t}</span>`) : 'every type'],
        ['Description', endpoint.description],
        ['Signing secret', html`<span class="muted">shown once, when the endpoint was created</span>`],
        ['Last 24 h', endpoint.health24h ? html`<${Health24h} h=${endpoint.health24h} full />` : undefined],
        ['Failing since', endpoint.failingSince ? when(endpoint.failingSince) : undefined],
        ['Disabled', endpoint.disabledAt ? html`${when(endpoint.disabledAt)} <span class="muted">${endpoint.disabledReason || ''}</span>` : undefined],
        ['Created', dateFull(endpoint.createdAt)],
      ]} />
      <${ActionResult} action=${action} />
    </section>
    <${Attempts} rows=${attempts.data || []} error=${attempts.error} loading=${attempts.loading} query=${query} onRedeliver=${redeliver} what="Event" />
  </div>`;
}

function Webhooks({ query }) {
  const data = useAsync(loadWebhooks, []);
  // The secret of a just-created endpoint: in memory only, never in the URL.
  const [fresh, setFresh] = useState(null);
  if (data.error) return html`<${ErrorBox} error=${data.error} />`;
  if (!data.data) return html`<div class="center"><${Spinner} /></div>`;
  const { channels, endpoints } = data.data;
  if (query.ep) return html`<${EndpointDetail} id=${query.ep} data=${data.data} query=${query} reload=${data.reload} />`;
  const created = (saved) => {
    setQuery({ new: '' });
    if (saved) {
      setFresh(saved);
      data.reload();
    }
  };
  return html`<div class="stack-12">
    ${fresh ? html`<${OnceSecret} title=${`Copy the signing secret of ${fresh.url} now.`} value=${fresh.secret} onDone=${() => setFresh(null)}>
      <p class="small">Receivers verify <code>webhook-signature</code> with it (any Standard Webhooks library). <${Link} to=${href('/delivery', { ep: fresh.id })}>Open the endpoint</${Link}></p>
    </${OnceSecret}>` : null}
    ${query.new ? (channels.length ? html`<${EndpointForm} channels=${channels} onDone=${created} />`
      : html`<${Empty} title="No channel yet"><p>Webhooks deliver a channel's events. <${Link} to=${href('/settings')}>Create an app and a channel</${Link}> first.</p></${Empty}>`) : null}
    <section class="card" aria-labelledby="eps-title">
      <div class="card-head"><h2 class="card-title" id="eps-title">Webhook endpoints</h2>
        ${query.new ? null : html`<button type="button" class="btn btn-primary btn-sm" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New endpoint</button>`}</div>
      ${endpoints.length ? html`<div class="table-wrap"><table class="table clickable" aria-label="Webhook endpoints">
        <thead><tr><th scope="col">URL</th><th scope="col">Channel</th><th scope="col">Event types</th><th scope="col">State</th><th scope="col">24 h</th><th scope="col">Created</th></tr></thead>
        <tbody>${endpoints.map((e) => html`<tr key=${e.id} tabindex="0" data-endpoint-id=${e.id} onClick=${() => setQuery({ ep: e.id }, { replace: false })}
            onKeyDown=${(ev) => { if (ev.key === 'Enter') setQuery({ ep: e.id }, { replace: false }); }}>
          <td class="mono url-cell">${e.url}</td><td>${e.channel ? `${e.channel.appName} / ${e.channel.name}` : e.channelId}</td>
          <td>${e.eventTypes ? e.eventTypes.map((t) => html`<span class="chip chip-sm">${t}</span>`) : html`<span class="muted">every type</span>`}</td>
          <td><${EndpointState} e=${e} /></td><td><${Health24h} h=${e.health24h} /></td><td>${when(e.createdAt)}</td></tr>`)}</tbody></table></div>`
      : html`<${Empty} title="No webhook endpoint yet"><p>An endpoint receives every event of one channel as a signed POST, retried until it answers 2xx.</p>
          ${query.new ? null : html`<button type="button" class="btn btn-primary" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New endpoint</button>`}</${Empty}>`}
    </section>
  </div>`;
}

// ---------------------------------------------------------------- export destinations

function parseHeaders(text) {
  const headers = {};
  for (const line of String(text || '').split('\n')) {
    const i = line.indexOf(':');
    if (line.trim() && i > 0) headers[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return headers;
}

function DestinationForm({ envs, kinds, dest, onDone }) {
  const action = useAction();
  const editing = !!dest;
  const [kindName, setKindName] = useState(dest?.kind || 'otlp');
  const kind = (kinds || []).find((k) => k.name === kindName);
  const needsUrl = !kind || (kind.requiredKeys || []).includes('endpointUrl');
  const submit = (form) => action.run(async () => {
    const v = formValues(form);
    const body = {
      name: v.name, kind: v.kind, endpointUrl: v.endpointUrl || '', envSlug: v.envSlug, encoding: v.encoding,
      signals: SIGNALS.filter((s) => v[`signal-${s}`]), eventTypeFilter: splitList(v.eventTypeFilter), serviceName: v.serviceName || null,
    };
    // Header values are write-only: empty on edit keeps the stored ones.
    if (!editing || v.headers) body.headers = parseHeaders(v.headers);
    // An edit that keeps the kind and changes no setting sends no config (the stored one,
    // secrets included, stays); a new kind starts from what the form holds.
    const sameKind = editing && v.kind === dest.kind;
    const config = readConfig(form, kind?.configSchema,
      sameKind ? { omit: HOST_KEYS, editing: true, stored: dest.config, secretKeys: dest.secretConfigKeys || [] } : { omit: HOST_KEYS });
    if (config !== undefined) body.config = config;
    else if (editing && !sameKind) body.config = {};
    const saved = editing ? await api.patch(`/export-destinations/${dest.id}`, body) : await api.post('/export-destinations', body);
    onDone(saved);
  });
  const signals = dest ? dest.signals : ['traces'];
  return html`<${FormCard} id="dest-form" title=${editing ? 'Edit destination' : 'New export destination'} submitLabel=${editing ? 'Save' : 'Create destination'}
      action=${action} onSubmit=${submit} onCancel=${() => onDone(null)}>
    <${FormField} id="dest-name" label="Name"><input id="dest-name" name="name" required maxlength="120" defaultValue=${dest?.name || ''} autocomplete="off" /></${FormField}>
    <${FormField} id="dest-kind" label="Kind"><select id="dest-kind" name="kind" onChange=${(ev) => setKindName(ev.target.value)}>
      ${(kinds && kinds.length ? kinds.map((k) => k.name) : ['otlp', 'http']).map((k) => html`<option value=${k} selected=${kindName === k}>${KIND_LABELS[k] || k}</option>`)}</select></${FormField}>
    <${FormField} id="dest-url" label="Endpoint URL" wide hint=${needsUrl ? 'OTLP: the base URL (/v1/traces, /v1/logs, /v1/metrics are added).' : 'This kind needs no URL: leave it empty.'}>
      <input id="dest-url" name="endpointUrl" type="url" required=${needsUrl} placeholder="https://otel.example.com" defaultValue=${dest?.endpointUrl || ''} autocomplete="off" /></${FormField}>
    <${ConfigFields} key=${kindName} idPrefix="dest-config" schema=${kind?.configSchema} omit=${HOST_KEYS} label="Configuration"
      config=${editing && dest.kind === kindName ? dest.config : {}} secretKeys=${editing && dest.kind === kindName ? dest.secretConfigKeys || [] : []}
      errors=${configErrors(action.error, schemaFields(kind?.configSchema, HOST_KEYS).fields.map((f) => f.key))} fallbackHint=${configHint(kind)} />
    <${FormField} id="dest-env" label="Environment"><select id="dest-env" name="envSlug">
      <option value="*" selected=${!dest || dest.envSlug === '*'}>Every environment (*)</option>
      ${envs.map((e) => html`<option value=${e.slug} selected=${dest?.envSlug === e.slug}>${e.name} (${e.slug})</option>`)}</select></${FormField}>
    <fieldset class="ff scopes-ff"><legend>Signals</legend>
      ${SIGNALS.map((s) => html`<label class="check"><input type="checkbox" name=${`signal-${s}`} defaultChecked=${signals.includes(s)} />${s}</label>`)}</fieldset>
    <${FormField} id="dest-encoding" label="Encoding"><select id="dest-encoding" name="encoding">
      ${['protobuf', 'json'].map((k) => html`<option value=${k} selected=${(dest?.encoding || 'protobuf') === k}>${k}</option>`)}</select></${FormField}>
    <${FormField} id="dest-types" label="Event types" hint="Comma-separated; empty: every type.">
      <input id="dest-types" name="eventTypeFilter" defaultValue=${(dest?.eventTypeFilter || []).join(', ')} autocomplete="off" /></${FormField}>
    <${FormField} id="dest-service" label="Service name" hint="OTLP service.name.">
      <input id="dest-service" name="serviceName" defaultValue=${dest?.serviceName || ''} autocomplete="off" /></${FormField}>
    <${FormField} id="dest-headers" label="Headers" wide
      hint=${editing ? `One "Name: value" per line. Stored values are never shown${dest.headerKeys.length ? ` (now: ${dest.headerKeys.join(', ')})` : ''}; leave empty to keep them, or enter the full set to replace them.` : 'One "Name: value" per line, e.g. Authorization: Bearer …. Values are write-only: never shown again.'}>
      <textarea id="dest-headers" name="headers" rows="2" spellcheck="false" autocomplete="off"></textarea></${FormField}>
  </${FormCard}>`;
}

function DestinationDetail({ id, data, query, reload }) {
  const dest = data.destinations.find((d) => String(d.id) === String(id));
  const attempts = useAsync(() => (dest ? api.get(`/export-destinations/${id}/deliveries`, attemptQuery(query)).then((r) => r.data) : []),
    [id, !!dest, query.outcome, query.class]);
  usePolling(attempts.reload, 2000, [id, query.outcome, query.class]);
  const action = useAction();
  const test = useAction();
  const [testResult, setTestResult] = useState(null);
  const redeliver = useAction();
  if (!dest) return html`<${Empty} title="No such export destination"><p>It may have been deleted. <${Link} to=${href('/delivery', { tab: 'exports' })}>All destinations</${Link}></p></${Empty}>`;
  const setActive = (active) => action.run(async () => {
    await api.patch(`/export-destinations/${id}`, { active });
    reload();
  }, active ? 'Enabled: new events are queued for it again.' : 'Disabled: its queue was dropped.');
  const remove = () => action.run(async () => {
    await api.del(`/export-destinations/${id}`);
    setQuery({ dest: '' });
    reload();
  });
  const runTest = () => test.run(async () => {
    setTestResult(await api.post(`/export-destinations/${id}/test`, {}));
  });
  // Every given-up batch of the destination, whenever it was given up.
  const redeliverGivenUp = () => redeliver.run(async () => {
    const r = await api.post(`/export-destinations/${id}/redeliver`, { from: '1970-01-01T00:00:00Z' });
    reload();
    attempts.reload();
    return r;
  }, 'Queued again: the given-up batches are being re-sent.');
  if (query.edit) {
    return html`<${DestinationForm} envs=${data.envs} kinds=${data.kinds} dest=${dest} onDone=${(saved) => { setQuery({ edit: '' }); if (saved) reload(); }} />`;
  }
  const r = testResult;
  const h = dest.health;
  return html`<div class="stack-12">
    <section class="card" aria-labelledby="dest-title">
      <div class="card-head">
        <div><div class="kicker"><${Link} to=${href('/delivery', { tab: 'exports' })}>Export destinations</${Link}> /</div>
          <h2 class="card-title" id="dest-title">${dest.name}</h2></div>
        <div class="head-right">
          ${dest.active ? html`<${Badge} kind="ok">Active</${Badge}>` : html`<${Badge} kind="wait">Disabled</${Badge}>`}
          <${HealthBadge} health=${h} />
          ${h && h.givenUpBatches > 0 ? html`<button type="button" class="btn btn-sm" onClick=${redeliverGivenUp} disabled=${redeliver.busy}>Redeliver ${num(h.givenUpBatches)} given-up batch${h.givenUpBatches === 1 ? '' : 'es'}</button>` : null}
          <button type="button" class="btn btn-sm" onClick=${runTest} disabled=${test.busy}>Send test event</button>
          <button type="button" class="btn btn-sm" onClick=${() => setQuery({ edit: '1' })}>Edit</button>
          <button type="button" class="btn btn-sm" onClick=${() => setActive(!dest.active)}>${dest.active ? 'Disable' : 'Enable'}</button>
          <${DeleteButton} what=${`the destination "${dest.name}"`} consequence="Its queued batches are dropped; nothing more is exported to it." onDelete=${remove} />
        </div>
      </div>
      <${Facts} rows=${[
        ['Kind', dest.kind === 'otlp' ? `OTLP/HTTP (${dest.encoding})` : KIND_LABELS[dest.kind] || dest.kind],
        ['Last 24 h', dest.health24h ? html`<${Health24h} h=${dest.health24h} full />` : undefined],
        ['Endpoint', dest.endpointUrl ? html`<span class="mono">${dest.endpointUrl}</span>` : null],
        ['Configuration', Object.keys(dest.config || {}).length || dest.secretConfigKeys?.length
          ? html`<span class="mono">${JSON.stringify(dest.config)}</span>${dest.secretConfigKeys?.length ? html` ${dest.secretConfigKeys.map((k) => html`<span class="chip chip-sm mono">${k}</span>`)} <span class="muted small">secret, write-only</span>` : null}` : null],
        ['Last success', h && h.lastSuccessAt ? when(h.lastSuccessAt) : null],
        ['Last failure', h && h.lastFailureAt ? html`${when(h.lastFailureAt)} <span class="mono small" data-testid="last-failure">${h.lastFailureReason}</span>` : null],
        ['Consecutive failures', h && h.consecutiveFailures ? num(h.consecutiveFailures) : null],
        ['Given-up batches', h && h.givenUpBatches ? html`<span data-testid="given-up">${num(h.givenUpBatches)}</span>` : null],
        ['Queued', h && h.pending ? num(h.pending) : null],
        ['Environment', dest.envSlug === '*' ? 'every environment' : html`<span class="mono">${dest.envSlug}</span>`],
        ['Signals', dest.signals.map((s) => html`<span class="chip chip-sm">${s}</span>`)],
        ['Event types', dest.eventTypeFilter.length ? dest.eventTypeFilter.map((t) => html`<span class="chip chip-sm">${t}</span>`) : 'every type'],
        ['Service name', dest.serviceName],
        ['Headers', dest.headerKeys.length ? html`${dest.headerKeys.map((k) => html`<span class="chip chip-sm mono">${k}</span>`)} <span class="muted small">values are write-only</span>` : null],
        ['Created', dateFull(dest.createdAt)],
      ]} />
      <${ActionResult} action=${action} />
      <${ActionResult} action=${redeliver} />
      <${ErrorBox} error=${test.error} />
      ${r ? html`<div class=${`test-result ${r.ok ? 'ok' : 'bad'}`} role="status" data-testid="test-result">
        <strong>${r.ok ? 'Test delivered' : 'Test failed'}</strong>: status ${r.statusCode || 'none (no HTTP answer)'} in ${ms(r.durationMs)}
        ${r.responseBody ? html`<pre class="code">${r.responseBody}</pre>` : null}</div>` : null}
    </section>
    <${Attempts} rows=${attempts.data || []} error=${attempts.error} loading=${attempts.loading} query=${query} what="First event" />
  </div>`;
}

async function loadExports() {
  const [destinations, envs, kinds] = await Promise.all([
    api.get('/export-destinations'), api.get('/environments'), api.get('/export-destinations/kinds')]);
  return { destinations: destinations.data, envs: envs.data || envs, kinds: kinds.data };
}

function Exports({ query }) {
  const data = useAsync(loadExports, []);
  if (data.error) return html`<${ErrorBox} error=${data.error} />`;
  if (!data.data) return html`<div class="center"><${Spinner} /></div>`;
  if (query.dest) return html`<${DestinationDetail} id=${query.dest} data=${data.data} query=${query} reload=${data.reload} />`;
  const { destinations, envs, kinds } = data.data;
  const created = (saved) => {
    setQuery(saved ? { new: '', dest: saved.id } : { new: '' }, { replace: !saved });
    if (saved) data.reload();
  };
  return html`<div class="stack-12">
    ${query.new ? html`<${DestinationForm} envs=${envs} kinds=${kinds} onDone=${created} />` : null}
    <section class="card" aria-labelledby="dests-title">
      <div class="card-head"><h2 class="card-title" id="dests-title">Export destinations</h2>
        ${query.new ? null : html`<button type="button" class="btn btn-primary btn-sm" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New destination</button>`}</div>
      ${destinations.length ? html`<div class="table-wrap"><table class="table clickable" aria-label="Export destinations">
        <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Endpoint</th><th scope="col">Environment</th><th scope="col">Signals</th><th scope="col">State</th><th scope="col">24 h</th></tr></thead>
        <tbody>${destinations.map((d) => html`<tr key=${d.id} tabindex="0" data-destination-id=${d.id} onClick=${() => setQuery({ dest: d.id }, { replace: false })}
            onKeyDown=${(ev) => { if (ev.key === 'Enter') setQuery({ dest: d.id }, { replace: false }); }}>
          <td>${d.name}</td><td>${d.kind}</td><td class="mono url-cell">${d.endpointUrl}</td><td class="mono">${d.envSlug}</td>
          <td>${d.signals.map((s) => html`<span class="chip chip-sm">${s}</span>`)}</td>
          <td>${d.active ? html`<${Badge} kind="ok">Active</${Badge}>` : html`<${Badge} kind="wait">Disabled</${Badge}>`} <${HealthBadge} health=${d.health} /></td><td><${Health24h} h=${d.health24h} /></td></tr>`)}</tbody></table></div>`
      : html`<${Empty} title="No export destination yet"><p>A destination ships the organization's events as OTLP traces, logs and metrics (or plain JSON) to your observability stack.</p>
          ${query.new ? null : html`<button type="button" class="btn btn-primary" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New destination</button>`}</${Empty}>`}
    </section>
  </div>`;
}

export function DeliveryView({ route }) {
  const q = route.query;
  const tab = q.tab === 'exports' ? 'exports' : 'webhooks';
  const tabs = useMemo(() => [['webhooks', 'Webhook endpoints'], ['exports', 'Export destinations']], []);
  return html`<div class="page">
    <header class="page-head"><h1>Delivery</h1></header>
    <nav class="subnav" aria-label="Delivery">
      ${tabs.map(([key, label]) => html`<${Link} to=${href('/delivery', { tab: key === 'webhooks' ? '' : key })} class=${tab === key ? 'on' : ''}
        aria-current=${tab === key ? 'page' : undefined}>${label}</${Link}>`)}
    </nav>
    ${tab === 'webhooks' ? html`<${Webhooks} query=${q} />` : html`<${Exports} query=${q} />`}
  </div>`;
}
