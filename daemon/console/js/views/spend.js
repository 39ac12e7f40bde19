// Spend: each policy's ladder as a bar (the window's spend against its limit, every rung
// marked, the rung in force, how far the next one is, when the window resets), policies
// created, edited, paused and deleted, and the answer of POST /spend-policies/check for a
// chosen model, key, app, environment or end user (kept in the URL: ?model=&key=&...).
import { api } from '../api.js';
import { dateTime, ms, num, num1, usd } from '../format.js';
import { html, useEffect, useRef, useState } from '../lib.js';
import { setQuery } from '../router.js';
import { Empty, ErrorBox, Icon, Spinner, useAsync } from '../ui.js';
import {
  ActionResult, Badge, DeleteButton, Facts, FormCard, FormField, formValues, useAction, usePolling,
} from '../manage.js';

const WINDOWS = [['hour', 'Hour (UTC)'], ['day', 'Day (UTC)'], ['week', 'Week (UTC, from Monday)'], ['month', 'Month (UTC)'], ['rolling_24h', 'Rolling 24 hours']];
const RUNG_ACTIONS = ['alert', 'fallback', 'block'];
// Most severe first: the rung in force is the most severe one reached.
const SEVERITY = (r) => (r.action === 'block' ? (r.block_mode === 'soft' ? 3 : 4) : r.action === 'fallback' ? 2 : 1);
const RUNG_KIND = { alert: 'warn', fallback: 'wait', block: 'err' };
const CHECK_FIELDS = [['model', 'model'], ['key', 'apiKeyId'], ['app', 'appId'], ['env', 'environmentId'], ['user', 'userId'], ['provider', 'provider']];

const rungLabel = (r) => (r.action === 'block' ? `block (${r.block_mode || 'hard'})` : r.action === 'fallback' ? `fallback → ${r.fallback_model}` : 'alert');

// When the window's spend starts again from zero (calendar windows, UTC), or null (rolling).
export function windowReset(type, now = new Date()) {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  if (type === 'hour') return new Date(Date.UTC(y, m, d, now.getUTCHours() + 1));
  if (type === 'day') return new Date(Date.UTC(y, m, d + 1));
  if (type === 'week') return new Date(Date.UTC(y, m, d + (((8 - now.getUTCDay()) % 7) || 7)));
  if (type === 'month') return new Date(Date.UTC(y, m + 1, 1));
  return null;
}

function inHours(date, now = Date.now()) {
  const mins = Math.max(0, Math.round((date.getTime() - now) / 60000));
  if (mins < 60) return `${mins}m`;
  if (mins < 48 * 60) return `${Math.floor(mins / 60)}h ${mins % 60}m`;
  return `${Math.floor(mins / 1440)}d ${Math.floor((mins % 1440) / 60)}h`;
}

// Dollars as everywhere (format.js: significant figures below $1, cents above).
const dollars = (v) => usd(v);

const utc = (d) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

// The state of a ladder: percent used, rung in force, next rung and the dollars to it.
export function ladderState(p) {
  const percent = p.limitUsd > 0 ? (p.currentSpendUsd / p.limitUsd) * 100 : 0;
  const reached = p.rungs.filter((r) => percent >= r.at_percent);
  const inForce = reached.length ? reached.reduce((a, b) => (SEVERITY(b) > SEVERITY(a) || (SEVERITY(b) === SEVERITY(a) && b.at_percent > a.at_percent) ? b : a)) : null;
  const next = p.rungs.find((r) => r.at_percent > percent) || null;
  const toNext = next ? (next.at_percent / 100) * p.limitUsd - p.currentSpendUsd : null;
  return { percent, inForce, next, toNext };
}

function scopeChips(p, names) {
  const chips = [];
  if (p.model) chips.push(`model ${p.model}`);
  if (p.provider) chips.push(`provider ${p.provider}`);
  if (p.appId) chips.push(`app ${names.apps[p.appId] || p.appId}`);
  if (p.apiKeyId) chips.push(`key ${names.keys[p.apiKeyId] || p.apiKeyId}`);
  if (p.environmentId) chips.push(`env ${names.envs[p.environmentId] || p.environmentId}`);
  if (p.userId) chips.push(`user ${p.userId}`);
  if (p.tagKey) chips.push(`tag ${p.tagKey}=${p.tagValue}`);
  return chips.length ? chips.map((c) => html`<span class="chip chip-sm">${c}</span>`) : html`<span class="muted">every event</span>`;
}

// The track with its fill and a mark per rung; positions are set through the CSSOM.
function Ladder({ p, state }) {
  const ref = useRef(null);
  const scale = Math.max(100, ...p.rungs.map((r) => r.at_percent), state.percent) * 1.04;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.querySelector('.ladder-fill').style.width = `${Math.min(100, (state.percent / scale) * 100)}%`;
    el.querySelectorAll('.rung').forEach((m) => {
      const at = Number(m.dataset.at) / scale;
      m.style.left = `${at * 100}%`;
      // Labels near an end hang inwards, so none is cut off.
      m.classList.toggle('at-end', at > 0.85);
      m.classList.toggle('at-start', at < 0.12);
    });
    el.querySelector('.ladder-limit').style.left = `${(100 / scale) * 100}%`;
  });
  const fillKind = state.inForce ? RUNG_KIND[state.inForce.action] : 'ok';
  return html`<div class="ladder" ref=${ref} role="img"
      aria-label=${`${num1(state.percent)}% of the limit used; ${state.inForce ? `${rungLabel(state.inForce)} in force` : 'no rung reached'}`}>
    <div class="ladder-track"><span class=${`ladder-fill fill-${fillKind}`}></span><span class="ladder-limit"></span></div>
    ${p.rungs.map((r, i) => html`<span class=${`rung rung-${r.action}${i % 2 ? ' lower' : ''}${state.inForce === r ? ' in-force' : ''}${state.percent >= r.at_percent ? ' reached' : ''}`} data-at=${r.at_percent}>
      <span class="rung-tick"></span><span class="rung-label">${r.at_percent}% ${rungLabel(r)}</span></span>`)}
  </div>`;
}

// The publishes a block rung refused (GET /spend-policies/{id}/refusals): how many, and
// the newest 20 behind a disclosure. Nothing when the daemon does not serve the route.
function Refusals({ policyId }) {
  const r = useAsync(() => api.get(`/spend-policies/${policyId}/refusals`).catch((e) => (e.status === 404 || e.status === 405 ? null : Promise.reject(e))), [policyId]);
  const d = r.data;
  if (!d) return null;
  if (!d.count) return html`<p class="small muted" data-testid="refusals">No publish refused.</p>`;
  return html`<details class="refusals" data-testid="refusals"><summary class="small"><strong>${num(d.count)}</strong> publish${d.count === 1 ? '' : 'es'} refused by the block rung${d.data.length < d.count ? ` (the newest ${num(d.data.length)})` : ''}</summary>
    <div class="table-wrap"><table class="table dense" aria-label="Refused publishes">
      <thead><tr><th scope="col">Time</th><th scope="col">Channel</th><th scope="col">Agent</th><th scope="col">API key</th><th scope="col" class="num">Amount</th><th scope="col">Reason</th></tr></thead>
      <tbody>${d.data.map((x, i) => html`<tr key=${i}><td>${dateTime(x.occurredAt)}</td><td>${x.channelId ?? '–'}</td><td>${x.agentId || '–'}</td>
        <td class="mono">${x.apiKeyId ?? '–'}</td><td class="num">${usd(x.amountUsd)}</td><td>${x.reason || ''}</td></tr>`)}</tbody></table></div></details>`;
}

function PolicyCard({ p, names, onEdit, reload }) {
  const action = useAction();
  const state = ladderState(p);
  const reset = windowReset(p.windowType);
  const toggle = () => action.run(async () => {
    await api.patch(`/spend-policies/${p.policyId}`, { enabled: !p.enabled });
    reload();
  }, p.enabled ? 'Paused: it no longer counts or acts.' : 'Enabled: spend recounted from the window\'s events.');
  const remove = () => action.run(async () => {
    await api.del(`/spend-policies/${p.policyId}`);
    reload();
  });
  return html`<section class=${`card policy${p.enabled ? '' : ' paused'}`} aria-labelledby=${`pol-${p.policyId}`} data-policy-id=${p.policyId}>
    <div class="card-head">
      <div><h2 class="card-title" id=${`pol-${p.policyId}`}>${p.name}</h2><div class="small">${scopeChips(p, names)}</div></div>
      <div class="head-right">
        ${!p.enabled ? html`<${Badge} kind="wait">Paused</${Badge}>` : state.inForce ? html`<${Badge} kind=${RUNG_KIND[state.inForce.action]}>${rungLabel(state.inForce)}</${Badge}>` : html`<${Badge} kind="ok">Under every rung</${Badge}>`}
        <button type="button" class="btn btn-sm" onClick=${toggle} aria-label=${`${p.enabled ? 'Pause' : 'Enable'} ${p.name}`}>${p.enabled ? 'Pause' : 'Enable'}</button>
        <button type="button" class="btn btn-sm" onClick=${onEdit} aria-label=${`Edit ${p.name}`}>Edit</button>
        <${DeleteButton} what=${`the policy "${p.name}"`} consequence="Its limits stop applying at once; notifications already made are still delivered." onDelete=${remove} />
      </div>
    </div>
    <div class="ladder-numbers">
      <span class="ladder-spent" data-testid="spent"><strong>${dollars(p.currentSpendUsd, p.limitUsd)}</strong> of ${dollars(p.limitUsd, p.limitUsd)} <span class="muted">·</span> <strong>${num1(state.percent)}%</strong></span>
      <span class="muted small">${WINDOWS.find((w) => w[0] === p.windowType)?.[1] || p.windowType}</span>
    </div>
    <${Ladder} p=${p} state=${state} />
    <p class="ladder-facts small" data-testid="ladder-facts">
      ${state.inForce ? html`In force: <strong>${rungLabel(state.inForce)}</strong> (from ${state.inForce.at_percent}%). ` : 'No rung reached. '}
      ${state.next ? html`Next: <strong>${rungLabel(state.next)}</strong> at ${state.next.at_percent}%, ${dollars(state.toNext, p.limitUsd)} more. ` : 'Every rung reached. '}
      ${reset ? html`Resets in ${inHours(reset)} <span class="muted">(${utc(reset)})</span>.` : 'Rolling: each cost leaves the window 24 hours after it was spent.'}
    </p>
    <${Refusals} policyId=${p.policyId} />
    <${ActionResult} action=${action} />
  </section>`;
}

function RungsEditor({ rungs, setRungs }) {
  const change = (i, patch) => setRungs(rungs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return html`<fieldset class="ff ff-wide rungs"><legend>Ladder (rungs, at percent of the limit, ascending)</legend>
    ${rungs.map((r, i) => html`<div class="rung-row" key=${i}>
      <label class="sr-only" for=${`rung-at-${i}`}>Rung ${i + 1} percent</label>
      <input id=${`rung-at-${i}`} type="number" min="1" max="1000" step="1" required value=${r.at_percent} class="w-xs"
        onInput=${(e) => change(i, { at_percent: e.currentTarget.value })} /><span aria-hidden="true">%</span>
      <label class="sr-only" for=${`rung-action-${i}`}>Rung ${i + 1} action</label>
      <select id=${`rung-action-${i}`} value=${r.action} onChange=${(e) => change(i, { action: e.currentTarget.value })}>
        ${RUNG_ACTIONS.map((a) => html`<option value=${a} selected=${a === r.action}>${a}</option>`)}</select>
      ${r.action === 'block' ? html`<label class="sr-only" for=${`rung-mode-${i}`}>Rung ${i + 1} block mode</label>
        <select id=${`rung-mode-${i}`} value=${r.block_mode || 'hard'} onChange=${(e) => change(i, { block_mode: e.currentTarget.value })}>
          <option value="hard" selected=${r.block_mode !== 'soft'}>hard: refuse (429)</option><option value="soft" selected=${r.block_mode === 'soft'}>soft: store, mark</option></select>` : null}
      ${r.action === 'fallback' ? html`<label class="sr-only" for=${`rung-model-${i}`}>Rung ${i + 1} fallback model</label>
        <input id=${`rung-model-${i}`} placeholder="fallback model" required value=${r.fallback_model || ''} onInput=${(e) => change(i, { fallback_model: e.currentTarget.value })} />` : null}
      <button type="button" class="btn btn-sm btn-ghost" onClick=${() => setRungs(rungs.filter((_, j) => j !== i))} aria-label=${`Remove rung ${i + 1}`} disabled=${rungs.length === 1}><${Icon} name="close" size=${14} /></button>
    </div>`)}
    <button type="button" class="btn btn-sm add-rung" disabled=${rungs.length >= 10}
      onClick=${() => setRungs([...rungs, { at_percent: Math.min(1000, Number(rungs[rungs.length - 1]?.at_percent || 0) + 20), action: 'block', block_mode: 'hard' }])}>
      <${Icon} name="plus" size=${14} />Add rung</button>
  </fieldset>`;
}

const DEFAULT_RUNGS = [{ at_percent: 50, action: 'alert' }, { at_percent: 80, action: 'fallback', fallback_model: 'gpt-4o-mini' }, { at_percent: 100, action: 'block', block_mode: 'hard' }];

function PolicyForm({ policy, refs, onDone }) {
  const action = useAction();
  const [rungs, setRungs] = useState(policy ? policy.rungs : DEFAULT_RUNGS);
  const submit = (form) => action.run(async () => {
    const v = formValues(form);
    const idOrNull = (x) => (x ? Number(x) : null);
    const body = {
      name: v.name, limitUsd: Number(v.limitUsd), windowType: v.windowType, cooldownMins: Number(v.cooldownMins || 60), enabled: v.enabled,
      model: v.model || null, provider: v.provider || null, userId: v.userId || null,
      appId: idOrNull(v.appId), apiKeyId: idOrNull(v.apiKeyId), environmentId: idOrNull(v.environmentId),
      tagKey: v.tagKey || null, tagValue: v.tagValue || null,
      destination: v.destination || null, destinationType: v.destination ? v.destinationType : null,
      rungs: rungs.map((r) => ({
        at_percent: Number(r.at_percent), action: r.action,
        ...(r.action === 'block' ? { block_mode: r.block_mode || 'hard' } : {}),
        ...(r.action === 'fallback' ? { fallback_model: r.fallback_model } : {}),
      })),
    };
    if (!policy) for (const k of Object.keys(body)) if (body[k] === null) delete body[k];
    const saved = policy ? await api.patch(`/spend-policies/${policy.policyId}`, body) : await api.post('/spend-policies', body);
    onDone(saved);
  });
  const pick = (name, label, list, current) => html`<${FormField} id=${`pol-${name}`} label=${label}><select id=${`pol-${name}`} name=${name}>
    <option value="">any</option>${list.map((x) => html`<option value=${x.id} selected=${String(current) === String(x.id)}>${x.name}</option>`)}</select></${FormField}>`;
  const text = (name, label, placeholder) => html`<${FormField} id=${`pol-${name}`} label=${label}>
    <input id=${`pol-${name}`} name=${name} placeholder=${placeholder} defaultValue=${policy?.[name] || ''} autocomplete="off" /></${FormField}>`;
  return html`<${FormCard} id="policy-form" title=${policy ? `Edit policy "${policy.name}"` : 'New spend policy'} submitLabel=${policy ? 'Save' : 'Create policy'}
      action=${action} onSubmit=${submit} onCancel=${() => onDone(null)}>
    <${FormField} id="pol-name" label="Name"><input id="pol-name" name="name" required maxlength="120" defaultValue=${policy?.name || ''} autocomplete="off" /></${FormField}>
    <${FormField} id="pol-limit" label="Limit (USD)"><input id="pol-limit" name="limitUsd" type="number" min="0" step="any" required defaultValue=${policy?.limitUsd ?? ''} /></${FormField}>
    <${FormField} id="pol-window" label="Window"><select id="pol-window" name="windowType">
      ${WINDOWS.map(([k, l]) => html`<option value=${k} selected=${(policy?.windowType || 'day') === k}>${l}</option>`)}</select></${FormField}>
    <${FormField} id="pol-cooldown" label="Notify at most every (minutes)"><input id="pol-cooldown" name="cooldownMins" type="number" min="0" step="1" defaultValue=${policy?.cooldownMins ?? 60} /></${FormField}>
    <${RungsEditor} rungs=${rungs} setRungs=${setRungs} />
    <p class="ff-wide hint form-section">Scope: every field is optional; together they must all match.</p>
    ${text('model', 'Model', 'any')}
    ${text('provider', 'Provider', 'any')}
    ${pick('appId', 'App', refs.apps, policy?.appId)}
    ${pick('apiKeyId', 'API key', refs.keys, policy?.apiKeyId)}
    ${pick('environmentId', 'Environment', refs.envs, policy?.environmentId)}
    ${text('userId', 'End user (metadata.user)', 'any')}
    ${text('tagKey', 'Tag key', 'e.g. team')}
    ${text('tagValue', 'Tag value', 'e.g. support')}
    <p class="ff-wide hint form-section">Notifications: each rung crossed is sent here once per window.</p>
    <${FormField} id="pol-destination" label="Destination URL"><input id="pol-destination" name="destination" type="url" placeholder="none" defaultValue=${policy?.destination || ''} autocomplete="off" /></${FormField}>
    <${FormField} id="pol-destinationType" label="Destination type"><select id="pol-destinationType" name="destinationType">
      ${['webhook', 'slack'].map((t) => html`<option value=${t} selected=${(policy?.destinationType || 'webhook') === t}>${t}</option>`)}</select></${FormField}>
    <div class="ff"><span class="ff-label">State</span><label class="check"><input type="checkbox" name="enabled" defaultChecked=${policy ? policy.enabled : true} />Enabled</label></div>
  </${FormCard}>`;
}

function Check({ query, refs, policies }) {
  const asked = CHECK_FIELDS.filter(([q]) => query[q]);
  const answer = useAsync(async () => {
    if (!asked.length) return null;
    const body = Object.fromEntries(asked.map(([q, f]) => [f, ['apiKeyId', 'appId', 'environmentId'].includes(f) ? Number(query[q]) : query[q]]));
    return api.post('/spend-policies/check', body);
  }, [JSON.stringify(asked.map(([q]) => query[q]))]);
  const submit = (e) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    setQuery(Object.fromEntries(CHECK_FIELDS.map(([q]) => [q, v[q] || ''])));
  };
  const a = answer.data;
  const policy = a && a.policyId ? policies.find((p) => p.policyId === a.policyId) : null;
  const sel = (name, label, list) => html`<${FormField} id=${`chk-${name}`} label=${label}><select id=${`chk-${name}`} name=${name}>
    <option value="">any</option>${list.map((x) => html`<option value=${x.id} selected=${String(query[name]) === String(x.id)}>${x.name}</option>`)}</select></${FormField}>`;
  return html`<section class="card" aria-labelledby="check-title">
    <h2 class="card-title" id="check-title">Check before a call</h2>
    <p class="hint">What <code>POST /spend-policies/check</code> answers for a model, key, app, environment or end user: what an agent asks before it calls a model.</p>
    <form class="form-grid check-form" onSubmit=${submit}>
      <${FormField} id="chk-model" label="Model"><input id="chk-model" name="model" defaultValue=${query.model || ''} placeholder="e.g. gpt-4o" autocomplete="off" /></${FormField}>
      ${sel('key', 'API key', refs.keys)}
      ${sel('app', 'App', refs.apps)}
      ${sel('env', 'Environment', refs.envs)}
      <${FormField} id="chk-user" label="End user"><input id="chk-user" name="user" defaultValue=${query.user || ''} autocomplete="off" /></${FormField}>
      <${FormField} id="chk-provider" label="Provider"><input id="chk-provider" name="provider" defaultValue=${query.provider || ''} autocomplete="off" /></${FormField}>
      <div class="form-actions"><button type="submit" class="btn btn-primary">Check</button></div>
    </form>
    <${ErrorBox} error=${answer.error} />
    ${a ? html`<div class="check-answer" data-testid="check-answer" data-allowed=${String(a.allowed)}>
      <div class="verdict-head">${a.allowed ? html`<${Badge} kind="ok">Allowed</${Badge}>` : html`<${Badge} kind="err">Blocked</${Badge}>`}
        ${a.action ? html`<span>action <strong>${a.action}</strong>${a.blockMode ? ` (${a.blockMode})` : ''}${a.fallbackModel ? html`: use <strong class="mono">${a.fallbackModel}</strong>` : ''}</span>` : html`<span class="muted">no rung in force</span>`}</div>
      <${Facts} rows=${[
        ['Policy', a.policyId ? (policy ? policy.name : a.policyId) : 'no policy matches'],
        ['Used', a.percent === null ? undefined : `${num1(a.percent)}%`],
        ['Retry after', a.retryAfterSeconds === null ? undefined : `${ms(a.retryAfterSeconds * 1000)} (${a.retryAfterSeconds} s)`],
      ]} />
    </div>` : asked.length && answer.loading ? html`<${Spinner} />` : null}
  </section>`;
}

async function loadSpend() {
  const [policies, apps, keys, envs] = await Promise.all([
    api.get('/spend-policies'), api.get('/apps'), api.get('/api-keys').catch(() => []), api.get('/environments'),
  ]);
  const refs = {
    apps: apps.map((a) => ({ id: a.id, name: a.name })),
    keys: keys.map((k) => ({ id: k.id, name: k.name })),
    envs: (envs.data || envs).map((e) => ({ id: e.id, name: e.name, slug: e.slug })),
  };
  const names = Object.fromEntries(['apps', 'keys', 'envs'].map((k) => [k, Object.fromEntries(refs[k].map((x) => [x.id, x.name]))]));
  return { policies: policies.policies, refs, names };
}

export function SpendView({ route }) {
  const q = route.query;
  const data = useAsync(loadSpend, []);
  // Spend moves with every publish: the bars follow.
  usePolling(data.reload, 2000);
  const d = data.data;
  const editing = q.edit && d ? d.policies.find((p) => p.policyId === q.edit) : null;
  const formOpen = !!(q.new || editing);
  const done = (saved) => {
    setQuery({ new: '', edit: '' });
    if (saved) data.reload();
  };
  return html`<div class="page">
    <header class="page-head"><h1>Spend</h1>
      <div class="head-right">${formOpen ? null : html`<button type="button" class="btn btn-primary" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New policy</button>`}</div></header>
    ${data.error && !d ? html`<${ErrorBox} error=${data.error} />` : !d ? html`<div class="center"><${Spinner} /></div>` : html`<div class="stack-12">
      ${formOpen ? html`<${PolicyForm} key=${editing ? editing.policyId : 'new'} policy=${editing} refs=${d.refs} onDone=${done} />` : null}
      ${d.policies.length ? d.policies.map((p) => html`<${PolicyCard} key=${p.policyId} p=${p} names=${d.names} reload=${data.reload} onEdit=${() => setQuery({ edit: p.policyId })} />`)
        : formOpen ? null : html`<div class="card"><${Empty} title="No spend policy yet"><p>A policy caps the cost of matching events per hour, day, week, month or rolling 24 hours, with a ladder of rungs: alert, fall back to a cheaper model, block.</p>
          <button type="button" class="btn btn-primary" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New policy</button></${Empty}></div>`}
      <${Check} query=${q} refs=${d.refs} policies=${d.policies} />
    </div>`}
  </div>`;
}
