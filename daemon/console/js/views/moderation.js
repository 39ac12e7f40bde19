// Moderation: the organization's rules in evaluation order (create, edit, pause, delete),
// a live "try it" that runs them on a sample event through POST /moderation/evaluate
// (nothing is published or recorded), the live feed of violations, and each rule's and
// each detector's efficacy over a window. A rule's detector is any of
// GET /moderation/detector-kinds; a plugin detector's detectorConfig is a form drawn from
// its schema (config_form.js), as export destinations' and alert rules' settings are. URL: ?range=&rule=&action=&target=&new=1&edit=<id>
import { api } from '../api.js';
import { ConfigFields, configErrors, readConfig, schemaFields } from '../config_form.js';
import { ms, num } from '../format.js';
import { html, useEffect, useMemo, useRef, useState } from '../lib.js';
import { href, Link, setQuery } from '../router.js';
import { Empty, ErrorBox, Icon, JsonView, Select, Spinner, useAsync } from '../ui.js';
import {
  ActionResult, Badge, Bar, DeleteButton, FormCard, FormField, formValues, useAction, usePolling, when,
} from '../manage.js';

const ACTIONS = ['block', 'redact', 'flag', 'allow'];
const ACTION_KIND = { block: 'err', redact: 'warn', flag: 'wait', allow: 'ok' };
const TARGETS = ['request', 'response', 'tool_call'];
const WITH_PATTERN = new Set(['regex', 'keyword', 'tool_name', 'tool_arg']);
const WINDOWS = [['1h', 'Last hour', 3600e3], ['24h', 'Last 24 hours', 86400e3], ['7d', 'Last 7 days', 7 * 86400e3], ['30d', 'Last 30 days', 30 * 86400e3]];
const EVENT_TYPES = ['agent.message', 'agent.start', 'agent.end', 'agent.tool_call.start'];
const SAMPLE = JSON.stringify({ role: 'user', text: 'My card is 4111 1111 1111 1111, mail me at jo@example.com' }, null, 2);

const ActionBadge = ({ action }) => html`<${Badge} kind=${ACTION_KIND[action] || 'wait'}>${action}</${Badge}>`;

function windowOf(key) {
  const w = WINDOWS.find((x) => x[0] === key) || WINDOWS[1];
  const until = Date.now();
  return { key: w[0], since: new Date(until - w[2]).toISOString(), until: new Date(until).toISOString() };
}

// The window's report up to now: violations per detector (rows) and per rule (rules), in one request.
const loadReport = (key) => api.get('/moderation/efficacy', { since: windowOf(key).since });

// The detectors a rule may name (GET /moderation/detector-kinds), read once per visit
// when a form first opens: the built-in ones take a pattern, a plugin's take its
// configSchema's settings (detectorConfig, drawn by config_form.js) and a minScore.
let kindsOnce = null;
const loadKinds = () => {
  kindsOnce = kindsOnce || api.get('/moderation/detector-kinds').then((r) => r.data, (e) => {
    kindsOnce = null;
    throw e;
  });
  return kindsOnce;
};

function RuleForm({ rule, onDone }) {
  const action = useAction();
  const kinds = useAsync(loadKinds, []);
  const [detector, setDetector] = useState(rule?.detector || 'keyword');
  const kind = (kinds.data || []).find((k) => k.name === detector);
  const takesPattern = kind ? kind.takesPattern : WITH_PATTERN.has(detector);
  const plugin = !!kind && !kind.builtIn;
  const sameDetector = !!rule && rule.detector === detector;
  const targets = kind?.targets?.length ? kind.targets : TARGETS;
  const submit = (form) => action.run(async () => {
    const v = formValues(form);
    const body = { name: v.name, detector: v.detector, action: v.action, target: v.target, enabled: v.enabled };
    body.pattern = takesPattern ? (v.pattern || '') : null;
    if (plugin) {
      // An edit that keeps the detector and changes no setting sends none (the stored
      // object, secrets included, stays); another detector starts from what the form holds.
      const config = readConfig(form, kind.configSchema,
        sameDetector ? { editing: true, stored: rule.detectorConfig || {}, secretKeys: rule.secretConfigKeys || [] } : {});
      if (config !== undefined) body.detectorConfig = config;
      else if (rule && !sameDetector) body.detectorConfig = null;
      if (v.minScore !== undefined) body.minScore = Number(v.minScore);
      else if (rule) body.minScore = null;
    } else if (kind && rule) {
      body.detectorConfig = null; // a built-in detector takes neither
      body.minScore = null;
    }
    const saved = rule ? await api.patch(`/moderation/rules/${rule.ruleId}`, body) : await api.post('/moderation/rules', body);
    onDone(saved);
  });
  const detectorHint = plugin ? `${kind.description ? `${kind.description} ` : ''}(plugin ${kind.plugin})` : undefined;
  const patternHint = takesPattern ? kind?.description || 'The pattern this detector matches.' : 'This detector takes no pattern.';
  return html`<${FormCard} id="rule-form" title=${rule ? `Edit rule "${rule.name}"` : 'New rule'} submitLabel=${rule ? 'Save' : 'Create rule'}
      action=${action} onSubmit=${submit} onCancel=${() => onDone(null)}>
    <${FormField} id="rule-name" label="Name"><input id="rule-name" name="name" required maxlength="120" defaultValue=${rule?.name || ''} autocomplete="off" /></${FormField}>
    <${FormField} id="rule-detector" label="Detector" hint=${detectorHint}>
      <input id="rule-detector" name="detector" list="rule-detectors" required value=${detector} autocomplete="off" onInput=${(e) => setDetector(e.currentTarget.value.trim())} />
      <datalist id="rule-detectors">${(kinds.data || []).map((k) => html`<option value=${k.name}>${k.description}</option>`)}</datalist></${FormField}>
    <${FormField} id="rule-pattern" label="Pattern" hint=${patternHint}>
      <input id="rule-pattern" name="pattern" class="mono" disabled=${!takesPattern} defaultValue=${rule?.pattern || ''} spellcheck="false" autocomplete="off" /></${FormField}>
    <${FormField} id="rule-target" label="Target"><select id="rule-target" name="target">
      ${targets.map((t) => html`<option value=${t} selected=${(targets.includes(rule?.target) ? rule.target : targets[0]) === t}>${t}</option>`)}</select></${FormField}>
    <${FormField} id="rule-action" label="Action"><select id="rule-action" name="action">
      ${ACTIONS.map((a) => html`<option value=${a} selected=${(rule?.action || 'block') === a}>${a}</option>`)}</select></${FormField}>
    ${plugin ? html`<${FormField} id="rule-minscore" label="Minimum score" hint="0 to 1: matches the detector scores lower do not count. Empty: every match counts.">
      <input id="rule-minscore" name="minScore" type="number" min="0" max="1" step="any" defaultValue=${sameDetector && rule.minScore !== null ? rule.minScore : ''} autocomplete="off" /></${FormField}>
    <${ConfigFields} key=${detector} idPrefix="rule-config" schema=${kind.configSchema} label="Detector settings"
      config=${sameDetector ? rule.detectorConfig || {} : {}} secretKeys=${sameDetector ? rule.secretConfigKeys || [] : []}
      errors=${configErrors(action.error, schemaFields(kind.configSchema).fields.map((f) => f.key), 'body.detectorConfig')}
      fallbackHint="A JSON object of this detector's settings for this rule; it declares none." />` : null}
    <${ErrorBox} error=${kinds.error} />
    <div class="ff"><span class="ff-label">State</span><label class="check"><input type="checkbox" name="enabled" defaultChecked=${rule ? rule.enabled : true} />Enabled</label></div>
  </${FormCard}>`;
}

function Rules({ rules, counts, reload, formOpen }) {
  const action = useAction();
  const toggle = (r) => action.run(async () => {
    await api.patch(`/moderation/rules/${r.ruleId}`, { enabled: !r.enabled });
    reload();
  }, `"${r.name}" ${r.enabled ? 'paused' : 'enabled'}.`);
  const remove = (r) => action.run(async () => {
    await api.del(`/moderation/rules/${r.ruleId}`);
    reload();
  }, `"${r.name}" deleted; its violations stay in the reports.`);
  const list = rules.data || [];
  return html`<section class="card" aria-labelledby="rules-title">
    <div class="card-head"><h2 class="card-title" id="rules-title">Rules <span class="muted small">in evaluation order</span></h2>
      ${formOpen ? null : html`<button type="button" class="btn btn-primary btn-sm" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New rule</button>`}</div>
    <${ActionResult} action=${action} />
    <${ErrorBox} error=${rules.error} />
    ${list.length ? html`<div class="table-wrap"><table class="table dense" aria-label="Moderation rules">
      <thead><tr><th scope="col" class="num">#</th><th scope="col">Name</th><th scope="col">Detector</th><th scope="col">Target</th><th scope="col">Action</th>
        <th scope="col" class="num">Violations</th><th scope="col">Last violation</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${list.map((r, i) => html`<tr key=${r.ruleId} data-rule-id=${r.ruleId} class=${r.enabled ? '' : 'paused'}>
        <td class="num muted">${i + 1}</td><td>${r.name}</td>
        <td><span class="mono">${r.detector}</span>${r.pattern ? html` <code class="pattern" title=${r.pattern}>${r.pattern}</code>` : null}</td>
        <td>${r.target}</td><td><${ActionBadge} action=${r.action} /></td>
        <td class="num" data-testid="rule-violations">${counts ? num(counts.get(r.ruleId)?.violationCount || 0) : html`<span class="muted">…</span>`}</td>
        <td class="nowrap" data-testid="rule-last">${counts && counts.get(r.ruleId) ? when(counts.get(r.ruleId).lastViolationAt) : html`<span class="muted">–</span>`}</td>
        <td>${r.enabled ? 'enabled' : html`<span class="muted">paused</span>`}</td>
        <td class="num actions">
          <button type="button" class="btn btn-sm" onClick=${() => toggle(r)} aria-label=${`${r.enabled ? 'Pause' : 'Enable'} ${r.name}`}>${r.enabled ? 'Pause' : 'Enable'}</button>
          <button type="button" class="btn btn-sm" onClick=${() => setQuery({ edit: r.ruleId })} aria-label=${`Edit ${r.name}`}>Edit</button>
          <${DeleteButton} what=${`the rule "${r.name}"`} consequence="It stops applying at once; its recorded violations stay." onDelete=${() => remove(r)} />
        </td></tr>`)}</tbody></table></div>`
    : rules.loading ? html`<div class="center"><${Spinner} /></div>`
    : formOpen ? null : html`<${Empty} title="No moderation rule yet"><p>Rules run on every publish, before the event is stored: block it, redact what matches, or flag it.</p>
        <button type="button" class="btn btn-primary" onClick=${() => setQuery({ new: '1' })}><${Icon} name="plus" size=${14} />New rule</button></${Empty}>`}
  </section>`;
}

// Runs the saved, enabled rules on the sample as it is typed (and again after any rule change).
function TryIt({ version }) {
  const [eventType, setEventType] = useState('agent.message');
  const [text, setText] = useState(SAMPLE);
  const [state, setState] = useState({ verdict: null, error: null });
  const seq = useRef(0);
  useEffect(() => {
    let payload;
    try {
      payload = JSON.parse(text);
    } catch (e) {
      setState({ verdict: null, error: `The payload is not JSON: ${e.message}` });
      return undefined;
    }
    const n = ++seq.current;
    const timer = setTimeout(() => {
      api.post('/moderation/evaluate', { eventType, payload }).then(
        (verdict) => n === seq.current && setState({ verdict, error: null }),
        (error) => n === seq.current && setState({ verdict: null, error }),
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [text, eventType, version]);
  const v = state.verdict;
  return html`<section class="card" aria-labelledby="try-title">
    <div class="card-head"><h2 class="card-title" id="try-title">Try it</h2><span class="muted small">runs the enabled rules; publishes nothing</span></div>
    <div class="form-grid">
      <${FormField} id="try-type" label="Event type"><select id="try-type" value=${eventType} onChange=${(e) => setEventType(e.currentTarget.value)}>
        ${EVENT_TYPES.map((t) => html`<option value=${t} selected=${t === eventType}>${t}</option>`)}</select></${FormField}>
      <${FormField} id="try-payload" label="Sample payload (JSON)" wide>
        <textarea id="try-payload" rows="6" spellcheck="false" value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea></${FormField}>
    </div>
    <${ErrorBox} error=${state.error} />
    ${v ? html`<div class="verdict" data-testid="verdict" data-decision=${v.decision}>
      <div class="verdict-head" aria-live="polite">
        ${v.blocked ? html`<${Badge} kind="err">Blocked</${Badge}> <span>by <strong>${v.blockedBy?.ruleName}</strong></span>`
          : html`<${Badge} kind="ok">Accepted</${Badge}>`}
        ${v.redacted ? html`<${Badge} kind="warn">redacted</${Badge}>` : null}${v.flagged ? html`<${Badge} kind="wait">flagged</${Badge}>` : null}
        <span class="muted small">targets: ${v.targets.join(', ') || 'none'}</span>
      </div>
      ${v.matches.length ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Rule matches, scrollable"><table class="table dense"><caption class="sr-only">Rule matches</caption>
        <thead><tr><th scope="col">Rule</th><th scope="col">Action</th><th scope="col">Fields</th><th scope="col" class="num">Matches</th></tr></thead>
        <tbody>${v.matches.map((m) => html`<tr><td>${m.ruleName} <span class="muted mono small">${m.detector}</span></td><td><${ActionBadge} action=${m.action} /></td>
          <td class="mono small">${m.fields.join(', ')}</td><td class="num" title=${`${ms(m.latencyMs)}`}>${m.matchCount}</td></tr>`)}</tbody></table></div>`
        : html`<p class="muted small">No rule matched.</p>`}
      ${v.blocked ? null : html`<details class="stored"><summary>As it would be stored</summary><${JsonView} value=${v.payload} /></details>`}
    </div>` : null}
  </section>`;
}

function Violations({ query, win, rules }) {
  const filter = { ruleId: query.rule, action: query.action, target: query.target };
  const feed = useAsync(() => api.get('/moderation/violations', { ...filter, since: windowOf(win.key).since, limit: 50 }), [query.rule, query.action, query.target, win.key]);
  usePolling(feed.reload, 2000, [query.rule, query.action, query.target, win.key]);
  const rows = feed.data?.data || [];
  return html`<section class="card" aria-labelledby="viol-title">
    <div class="card-head"><h2 class="card-title" id="viol-title">Violations <span class="live-dot" aria-hidden="true"></span><span class="muted small">live</span></h2>
      <span class="muted small">${feed.data ? `${num(rows.length)} newest of ${num(feed.data.meta.total)}` : ''}</span></div>
    <div class="toolbar toolbar-flat" role="search" aria-label="Violation filters">
      <${Select} id="v-rule" label="Rule" value=${query.rule || ''} onChange=${(v) => setQuery({ rule: v })}
        options=${[{ value: '', label: 'Any rule' }, ...(rules || []).map((r) => ({ value: r.ruleId, label: r.name }))]} />
      <${Select} id="v-action" label="Action" value=${query.action || ''} onChange=${(v) => setQuery({ action: v })}
        options=${[{ value: '', label: 'Any action' }, ...ACTIONS.map((a) => ({ value: a, label: a }))]} />
      <${Select} id="v-target" label="Target" value=${query.target || ''} onChange=${(v) => setQuery({ target: v })}
        options=${[{ value: '', label: 'Any target' }, ...TARGETS.map((a) => ({ value: a, label: a }))]} />
    </div>
    <${ErrorBox} error=${feed.error} />
    ${rows.length ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Violations, scrollable"><table class="table dense violations" aria-label="Violations">
      <thead><tr><th scope="col">Time</th><th scope="col">Rule</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Event</th>
        <th scope="col">Fields</th><th scope="col" class="num">Matches</th><th scope="col" class="num">Latency</th></tr></thead>
      <tbody>${rows.map((x) => html`<tr key=${x.id} data-violation-id=${x.id}>
        <td>${when(x.createdAt)}</td><td>${x.ruleName} <span class="muted mono small">${x.detector}</span></td><td><${ActionBadge} action=${x.action} /></td>
        <td>${x.target}</td><td class="mono small"><${ViolationEvent} x=${x} /></td>
        <td class="mono small">${(x.fields || []).join(', ')}</td><td class="num">${x.matchCount}</td><td class="num">${ms(x.latencyMs)}</td></tr>`)}</tbody></table></div>`
    : feed.loading && !feed.data ? html`<div class="center"><${Spinner} /></div>`
    : html`<${Empty} title="No violation in this window"><p>When a rule matches a published event it shows up here within seconds (never the matched text).</p></${Empty}>`}
  </section>`;
}

// The event a violation is about, linked: its trace (at its span) when it has one, and
// the event itself in the live tail (which loads it from around the violation's time).
function ViolationEvent({ x }) {
  if (!x.eventId) return html`${x.eventType || ''} <span class="muted">not stored</span>`;
  const event = x.channelId ? html`<${Link} to=${href('/live', { channel: x.channelId, event: x.eventId, at: x.createdAt })}
    data-testid="violation-event">${x.eventType || 'event'} #${x.eventId}</${Link}>` : html`${x.eventType || ''} #${x.eventId}`;
  return html`${event}${x.traceId ? html` · <${Link} to=${href(`/traces/${encodeURIComponent(x.traceId)}`)} data-testid="violation-trace">trace</${Link}>` : null}`;
}

function Efficacy({ report }) {
  const rows = report.data?.rows || [];
  const max = Math.max(1, ...rows.map((r) => r.violationCount));
  return html`<section class="card" aria-labelledby="eff-title">
    <div class="card-head"><h2 class="card-title" id="eff-title">Efficacy by detector</h2><span class="muted small">in the window, live</span></div>
    <${ErrorBox} error=${report.error} />
    ${rows.length ? html`<table class="table dense" aria-label="Efficacy by detector">
      <thead><tr><th scope="col">Detector</th><th scope="col">Action</th><th scope="col" class="bar-col">Violations</th>
        <th scope="col" class="num">Latency avg / max</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr><td class="mono">${r.detector}</td><td class="nowrap"><${ActionBadge} action=${r.action} /> <span class="muted small">${r.target}</span></td>
        <td><span class="hbar-cell"><${Bar} ratio=${r.violationCount / max} /><span class="hbar-label">${num(r.violationCount)}</span></span></td>
        <td class="num nowrap">${ms(r.avgLatencyMs)} / ${ms(r.maxLatencyMs)}</td></tr>`)}</tbody></table>`
    : report.loading ? html`<div class="center"><${Spinner} /></div>` : html`<p class="muted">No rule matched anything in this window.</p>`}
  </section>`;
}

export function ModerationView({ route }) {
  const q = route.query;
  const win = useMemo(() => windowOf(q.range || '24h'), [q.range]);
  const rules = useAsync(async () => (await api.get('/moderation/rules')).data, []);
  // Every rule's count and the detectors' efficacy come in one report, which follows the
  // live feed a little slower, whatever the number of rules.
  const report = useAsync(() => loadReport(win.key), [win.key]);
  usePolling(report.reload, 3000, [win.key]);
  const counts = useMemo(() => (report.data ? new Map(report.data.rules.map((r) => [r.ruleId, r])) : null), [report.data]);
  // A rule made elsewhere shows up once it matches something: the report names it.
  useEffect(() => {
    if (!counts || !rules.data) return;
    const known = new Set(rules.data.map((r) => r.ruleId));
    if ([...counts.values()].some((r) => !r.ruleDeleted && !known.has(r.ruleId))) rules.reload();
  }, [counts]);
  const editing = q.edit && rules.data ? rules.data.find((r) => r.ruleId === q.edit) : null;
  const formOpen = !!(q.new || editing);
  const done = (saved) => {
    setQuery({ new: '', edit: '' });
    if (saved) rules.reload();
  };
  const version = useMemo(() => JSON.stringify((rules.data || []).map((r) => [r.ruleId, r.updatedAt, r.enabled])), [rules.data]);
  return html`<div class="page">
    <header class="page-head"><h1>Moderation</h1>
      <div class="head-right"><${Select} id="mod-range" label="Window" hideLabel value=${win.key} onChange=${(v) => setQuery({ range: v === '24h' ? '' : v })}
        options=${WINDOWS.map(([value, label]) => ({ value, label }))} /></div></header>
    <div class="stack-12">
      ${formOpen ? html`<${RuleForm} key=${editing ? editing.ruleId : 'new'} rule=${editing} onDone=${done} />` : null}
      <${Rules} rules=${rules} counts=${counts} reload=${rules.reload} formOpen=${formOpen} />
      <div class="grid-halves">
        <${TryIt} version=${version} />
        <${Efficacy} report=${report} />
      </div>
      <${Violations} query=${q} win=${win} rules=${rules.data} />
    </div>
  </div>`;
}
