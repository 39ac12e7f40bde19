// Traces of the organization: name, input and output previews, user, session and tags;
// a time window, filters (app, channel, agent, status, user, session, and
// model, provider, tool, environment, tag: a trace matches when any of its events does),
// columns sorted by the daemon (start, duration, events, errors, tokens, cost), and
// pages. All of it lives in the URL.
import { api } from '../api.js';
import { loadChannels } from '../channels.js';
import { ago, dateTime, ms, num, RANGES, rangeOf, tokens, usd } from '../format.js';
import { html, useMemo } from '../lib.js';
import { href, navigate, setQuery } from '../router.js';
import { Empty, ErrorBox, FilterInput, Icon, parseTag, Select, ShortId, Spinner, TagHint, useAsync } from '../ui.js';
import { PublishHelp } from './publish_help.js';

const LIMIT = 50;

// Key columns stay on a phone; `opt` ones move into the row (.row-more) below 768 px.
const COLUMNS = [
  { key: 'trace', label: 'Trace', sortable: false },
  { key: 'input', label: 'Input', sortable: false, opt: true },
  { key: 'output', label: 'Output', sortable: false, opt: true },
  { key: 'start', label: 'Started', sortable: true },
  { key: 'duration', label: 'Duration', sortable: true, num: true, opt: true },
  { key: 'events', label: 'Events', sortable: true, num: true, opt: true },
  { key: 'errors', label: 'Errors', sortable: true, num: true },
  { key: 'tokens', label: 'Tokens', sortable: true, num: true, opt: true },
  { key: 'cost', label: 'Cost', sortable: true, num: true },
  { key: 'user', label: 'User', sortable: false, opt: true },
  { key: 'session', label: 'Session', sortable: false, opt: true },
  { key: 'tags', label: 'Tags', sortable: false, opt: true },
  { key: 'agents', label: 'Agents', sortable: false, opt: true },
];

// First start to last end, as the daemon computes it (the same number on the trace page).
export function durationOf(t) {
  if (t.durationMs !== undefined && t.durationMs !== null) return Number(t.durationMs);
  return new Date(t.endTime).getTime() - new Date(t.startTime).getTime();
}

// A trace's display name: its name, else its id.
export const traceName = (t) => t.name || t.traceId;

const Preview = ({ text }) => (text ? html`<span class="preview" title=${text}>${text}</span>` : html`<span class="muted">–</span>`);

function Tags({ tags }) {
  const entries = Object.entries(tags || {});
  if (!entries.length) return html`<span class="muted">–</span>`;
  return entries.map(([k, v]) => html`<span class="chip chip-sm">${k}=${String(v)}</span>`);
}

export function TracesView({ route }) {
  const q = route.query;
  const range = rangeOf(q.range || '24h');
  const sort = q.sort || 'start';
  const order = q.order || 'desc';
  const page = Math.max(1, Number(q.page) || 1);
  const channels = useAsync(loadChannels, []);
  const tag = parseTag(q.tag);
  const query = useMemo(() => {
    const until = Date.now();
    return {
      since: new Date(until - range.ms).toISOString(), app: q.app, channel: q.channel, agent: q.agent,
      model: q.model, provider: q.provider, tool: q.tool, environment: q.environment, status: q.status, user: q.user, session: q.session,
      filterTagKey: tag?.key, filterTagValue: tag?.value, sort, order, page, limit: LIMIT,
    };
  }, [range.key, q.app, q.channel, q.agent, q.model, q.provider, q.tool, q.environment, q.tag, q.status, q.user, q.session, sort, order, page, q.t]);
  const traces = useAsync(() => api.get('/traces', query), [query]);

  const onSort = (key) => {
    const next = sort === key && order === 'desc' ? 'asc' : 'desc';
    setQuery({ sort: key === 'start' && next === 'desc' ? '' : key, order: next === 'desc' ? '' : next, page: '' });
  };
  const open = (t) => navigate(href(`/traces/${encodeURIComponent(t.traceId)}`));
  const meta = traces.data?.meta;
  const rows = traces.data?.data || [];
  const apps = channels.data?.apps || [];
  const chans = (channels.data?.channels || []).filter((c) => !q.app || String(c.appId) === String(q.app));

  const th = (c) => {
    const cls = `${c.num ? 'num' : ''}${c.opt ? ' opt' : ''}`;
    if (!c.sortable) return html`<th scope="col" class=${cls}>${c.label}</th>`;
    const active = sort === c.key;
    return html`<th scope="col" class=${cls} aria-sort=${active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" class="th-sort" onClick=${() => onSort(c.key)}>${c.label}<span class="sort-mark" aria-hidden="true">${active ? (order === 'asc' ? '▲' : '▼') : ''}</span></button></th>`;
  };

  return html`<div class="page">
    <header class="page-head">
      <h1>Traces</h1>
      <div class="head-right">
        <span class="muted small">${meta ? `${num(meta.total)} trace${meta.total === 1 ? '' : 's'}` : ''}</span>
        <button type="button" class="btn" onClick=${() => setQuery({ t: Date.now() })}>Refresh</button>
      </div>
    </header>
    <div class="toolbar" role="search" aria-label="Filters">
      <${Select} id="tr-range" label="Time" value=${range.key} onChange=${(v) => setQuery({ range: v === '24h' ? '' : v, page: '' })}
        options=${RANGES.map((r) => ({ value: r.key, label: r.label }))} />
      <${Select} id="tr-app" label="App" value=${q.app || ''} onChange=${(v) => setQuery({ app: v, channel: '', page: '' })}
        options=${[{ value: '', label: 'All apps' }, ...apps.map((a) => ({ value: a.id, label: a.name }))]} />
      <${Select} id="tr-channel" label="Channel" value=${q.channel || ''} onChange=${(v) => setQuery({ channel: v, page: '' })}
        options=${[{ value: '', label: 'All channels' }, ...chans.map((c) => ({ value: c.id, label: `${c.appName} / ${c.name}` }))]} />
      <${Select} id="tr-status" label="Status" value=${q.status || ''} onChange=${(v) => setQuery({ status: v, page: '' })}
        options=${[{ value: '', label: 'Any' }, { value: 'error', label: 'With errors' }, { value: 'ok', label: 'Without errors' }]} />
      <${FilterInput} id="tr-user" label="User" value=${q.user} placeholder="any" width="s" onCommit=${(v) => setQuery({ user: v, page: '' })} />
      <${FilterInput} id="tr-session" label="Session" value=${q.session} placeholder="any" width="s" onCommit=${(v) => setQuery({ session: v, page: '' })} />
      <${FilterInput} id="tr-agent" label="Agent" value=${q.agent} placeholder="any" width="s" onCommit=${(v) => setQuery({ agent: v, page: '' })} />
      <${FilterInput} id="tr-model" label="Model" value=${q.model} placeholder="any" width="s" onCommit=${(v) => setQuery({ model: v, page: '' })} />
      <${FilterInput} id="tr-provider" label="Provider" value=${q.provider} placeholder="any" width="s" onCommit=${(v) => setQuery({ provider: v, page: '' })} />
      <${FilterInput} id="tr-tool" label="Tool" value=${q.tool} placeholder="any" width="s" onCommit=${(v) => setQuery({ tool: v, page: '' })} />
      <${FilterInput} id="tr-env" label="Environment" value=${q.environment} placeholder="any" width="s" onCommit=${(v) => setQuery({ environment: v, page: '' })} />
      <${FilterInput} id="tr-tag" label="Tag" value=${q.tag} placeholder="key=value" width="s" onCommit=${(v) => setQuery({ tag: v, page: '' })} />
    </div>
    <${TagHint} text=${q.tag} />
    <${ErrorBox} error=${traces.error} />
    <div class="table-wrap">
      <table class="table clickable" aria-label="Traces" aria-busy=${String(traces.loading)}>
        <thead><tr>${COLUMNS.map(th)}</tr></thead>
        <tbody>${rows.map((t) => html`<tr key=${t.traceId} tabindex="0" data-trace-id=${t.traceId}
            onClick=${(e) => (e.ctrlKey || e.metaKey ? window.open(href(`/traces/${encodeURIComponent(t.traceId)}`), '_blank', 'noopener') : open(t))}
            onKeyDown=${(e) => { if (e.key === 'Enter') open(t); }}>
          <td class="c-trace-name"><a href=${href(`/traces/${encodeURIComponent(t.traceId)}`)} onClick=${(e) => { if (!e.ctrlKey && !e.metaKey) { e.preventDefault(); } }} tabindex="-1"
              class="trace-name" title=${t.traceId}>${t.name ? t.name : html`<${ShortId} id=${t.traceId} n=${12} />`}</a>
            ${t.name ? html`<div class="muted small"><${ShortId} id=${t.traceId} n=${12} /></div>` : null}
            <div class="row-more" data-testid="row-more">${ms(durationOf(t))} · ${num(t.eventCount)} events · ${t.totalTokens ? `${tokens(t.totalTokens)} tokens` : 'no tokens'}${t.userId ? ` · user ${t.userId}` : ''}${t.sessionId ? ` · session ${t.sessionId}` : ''}
              ${t.inputPreview ? html`<div class="preview-line">${t.inputPreview}</div>` : null}</div></td>
          <td class="opt c-preview"><${Preview} text=${t.inputPreview} /></td>
          <td class="opt c-preview"><${Preview} text=${t.outputPreview} /></td>
          <td title=${t.startTime}>${dateTime(t.startTime)} <span class="muted small nowrap">${ago(t.startTime)}</span></td>
          <td class="num opt" data-testid="trace-duration">${ms(durationOf(t))}</td>
          <td class="num opt">${num(t.eventCount)}</td>
          <td class="num">${t.errorCount ? html`<span class="pill pill-err">${num(t.errorCount)}</span>` : html`<span class="muted">0</span>`}</td>
          <td class="num opt">${t.totalTokens ? html`<span title=${`${tokens(t.inputTokens)} in · ${tokens(t.outputTokens)} out`}>${tokens(t.totalTokens)}</span>` : html`<span class="muted">–</span>`}</td>
          <td class="num" data-testid="trace-cost">${t.costUsd ? usd(t.costUsd) : html`<span class="muted">–</span>`}</td>
          <td class="opt">${t.userId ? html`<a href=${href('/traces', { user: t.userId })} onClick=${(e) => { e.preventDefault(); e.stopPropagation(); setQuery({ user: t.userId, page: '' }); }}>${t.userId}</a>` : html`<span class="muted">–</span>`}</td>
          <td class="opt">${t.sessionId ? html`<a href=${href(`/sessions/${encodeURIComponent(t.sessionId)}`)} onClick=${(e) => { e.preventDefault(); e.stopPropagation(); navigate(href(`/sessions/${encodeURIComponent(t.sessionId)}`)); }}><${ShortId} id=${t.sessionId} n=${14} /></a>` : html`<span class="muted">–</span>`}</td>
          <td class="opt tags"><${Tags} tags=${t.tags} /></td>
          <td class="agents opt">${(t.agents || []).map((a) => html`<span class="chip">${a}</span>`)}</td>
        </tr>`)}</tbody>
      </table>
      ${traces.loading && !rows.length ? html`<div class="center"><${Spinner} /></div>` : null}
      ${!traces.loading && !rows.length && !traces.error ? html`<${Empty} title="No traces in this window">
        <p>Events that carry a <code>traceId</code> roll up into traces. Try a longer time window.</p>
        ${chans.length ? html`<${PublishHelp} channel=${chans.find((c) => String(c.id) === String(q.channel)) || chans[0]} withTrace />` : null}</${Empty}>` : null}
    </div>
    ${meta && meta.totalPages > 1 ? html`<nav class="pager" aria-label="Pages">
      <button type="button" class="btn" disabled=${page <= 1} onClick=${() => setQuery({ page: page - 1 > 1 ? page - 1 : '' }, { replace: false })}><${Icon} name="chevron" size=${12} />Previous</button>
      <span class="muted">Page ${page} of ${num(meta.totalPages)}</span>
      <button type="button" class="btn" disabled=${page >= meta.totalPages} onClick=${() => setQuery({ page: page + 1 }, { replace: false })}>Next<${Icon} name="chevron" size=${12} /></button>
    </nav>` : null}
  </div>`;
}
