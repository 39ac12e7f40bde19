// Sessions: the traces that share a session id (decisions §10), one row each: traces,
// first and last time, duration, cost, tokens, errors and end users. Sorted and paged by
// the daemon (GET /sessions); filters (time window, user, and model, environment and tag as
// on the traces list: a session counts its matching traces) live in the URL. A row opens
// the session's conversation.
import { ago, dateTime, ms, num, RANGES, tokens, usd } from '../format.js';
import { html } from '../lib.js';
import { carried, notServed, Pager, SharedFilterInputs, SortHeader, useServerList } from '../listing.js';
import { href, navigate, setQuery } from '../router.js';
import { Empty, ErrorBox, FilterInput, Select, ShortId, Spinner, TagHint } from '../ui.js';

const COLUMNS = [
  { key: 'session', label: 'Session' },
  { key: 'traces', label: 'Traces', sortable: true, num: true, opt: true },
  { key: 'first', label: 'First', sortable: true, opt: true },
  { key: 'last', label: 'Last', sortable: true },
  { key: 'duration', label: 'Duration', num: true, opt: true },
  { key: 'errors', label: 'Errors', sortable: true, num: true },
  { key: 'tokens', label: 'Tokens', sortable: true, num: true, opt: true },
  { key: 'cost', label: 'Cost', sortable: true, num: true },
  { key: 'users', label: 'Users', opt: true },
];

// Each user's traces; `filters`: more of the traces list's query (the list's own filters).
export function UserLinks({ ids, count, filters = {} }) {
  if (!ids || !ids.length) return html`<span class="muted">–</span>`;
  return html`${ids.map((u) => html`<a class="chip chip-sm chip-link" href=${href('/traces', { ...filters, user: u })}
      onClick=${(e) => { e.preventDefault(); e.stopPropagation(); navigate(href('/traces', { ...filters, user: u })); }}>${u}</a>`)}${count > ids.length ? html`<span class="muted small">+${num(count - ids.length)}</span>` : null}`;
}

export function SessionsView({ route }) {
  const q = route.query;
  const { range, sort, order, page, list, rows, meta } = useServerList(q, '/sessions', { user: q.user });
  const open = (s) => navigate(href(`/sessions/${encodeURIComponent(s.sessionId)}`));
  return html`<div class="page">
    <header class="page-head"><h1>Sessions</h1>
      <div class="head-right"><span class="muted small">${meta ? `${num(meta.total)} session${meta.total === 1 ? '' : 's'}` : ''}</span>
        <button type="button" class="btn" onClick=${() => setQuery({ t: Date.now() })}>Refresh</button></div></header>
    <p class="hint page-hint">Traces that carry the same session id (<code>metadata.session</code>, or a convention's session attribute) form a session: one conversation across several runs.</p>
    <div class="toolbar" role="search" aria-label="Filters">
      <${Select} id="se-range" label="Time" value=${range.key} onChange=${(v) => setQuery({ range: v === '7d' ? '' : v, page: '' })}
        options=${RANGES.map((r) => ({ value: r.key, label: r.label }))} />
      <${FilterInput} id="se-user" label="User" value=${q.user} placeholder="any" width="s" onCommit=${(v) => setQuery({ user: v, page: '' })} />
      <${SharedFilterInputs} q=${q} prefix="se" />
    </div>
    <${TagHint} text=${q.tag} />
    ${notServed(list.error) ? html`<${Empty} title="This daemon does not serve sessions yet" />` : html`<${ErrorBox} error=${list.error} />`}
    <div class="table-wrap">
      <table class="table clickable" aria-label="Sessions" aria-busy=${String(list.loading)}>
        <thead><tr>${COLUMNS.map((c) => html`<${SortHeader} c=${c} sort=${sort} order=${order} def="last" />`)}</tr></thead>
        <tbody>${rows.map((s) => html`<tr key=${s.sessionId} tabindex="0" data-session-id=${s.sessionId}
            onClick=${() => open(s)} onKeyDown=${(e) => { if (e.key === 'Enter') open(s); }}>
          <td><a href=${href(`/sessions/${encodeURIComponent(s.sessionId)}`)} tabindex="-1" onClick=${(e) => e.preventDefault()}><${ShortId} id=${s.sessionId} n=${20} /></a>
            <div class="row-more">${num(s.traceCount)} trace${s.traceCount === 1 ? '' : 's'} · ${ms(s.durationMs)} · ${tokens(s.totalTokens)} tokens${s.userIds && s.userIds.length ? ` · ${s.userIds.join(', ')}` : ''}</div></td>
          <td class="num opt">${num(s.traceCount)}</td>
          <td class="opt">${dateTime(s.firstSeen)}</td>
          <td>${dateTime(s.lastSeen)} <span class="muted small nowrap">${ago(s.lastSeen)}</span></td>
          <td class="num opt">${ms(s.durationMs)}</td>
          <td class="num">${s.errorCount ? html`<span class="pill pill-err">${num(s.errorCount)}</span>` : html`<span class="muted">0</span>`}</td>
          <td class="num opt">${s.totalTokens ? tokens(s.totalTokens) : html`<span class="muted">–</span>`}</td>
          <td class="num">${s.costUsd ? usd(s.costUsd) : html`<span class="muted">–</span>`}</td>
          <td class="opt"><${UserLinks} ids=${s.userIds} count=${s.userCount} filters=${carried(q, range)} /></td>
        </tr>`)}</tbody>
      </table>
      ${list.loading && !rows.length ? html`<div class="center"><${Spinner} /></div>` : null}
      ${!list.loading && !rows.length && !list.error ? html`<${Empty} title="No sessions in this window">
        <p>Give the traces of one conversation the same <code>metadata.session</code> (and the end user in <code>metadata.user</code>).</p></${Empty}>` : null}
    </div>
    <${Pager} meta=${meta} page=${page} />
  </div>`;
}
