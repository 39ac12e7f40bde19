// End users: who the agents served (metadata.user, or a convention's user attribute),
// with their traces, sessions, tokens, cost, errors and when they were first and last
// seen. Sorted and paged by the daemon (GET /end-users); filtered by time window, user id,
// and model, environment and tag as on the traces list (a user counts the matching
// traces). A user's traces and sessions, with the same filters, are one click away.
import { ago, dateTime, num, RANGES, tokens, usd } from '../format.js';
import { html } from '../lib.js';
import { carried, notServed, Pager, SharedFilterInputs, SortHeader, useServerList } from '../listing.js';
import { href, Link, navigate, setQuery } from '../router.js';
import { Empty, ErrorBox, FilterInput, Select, Spinner, TagHint } from '../ui.js';

const COLUMNS = [
  { key: 'user', label: 'User' },
  { key: 'traces', label: 'Traces', sortable: true, num: true },
  { key: 'sessions', label: 'Sessions', num: true, opt: true },
  { key: 'errors', label: 'Errors', sortable: true, num: true, opt: true },
  { key: 'tokens', label: 'Tokens', sortable: true, num: true, opt: true },
  { key: 'cost', label: 'Cost', sortable: true, num: true },
  { key: 'first', label: 'First seen', opt: true },
  { key: 'last', label: 'Last seen', sortable: true },
];

export function UsersView({ route }) {
  const q = route.query;
  const { range, sort, order, page, list, rows, meta } = useServerList(q, '/end-users', { search: q.search });
  const open = (u) => navigate(href('/traces', { ...carried(q, range), user: u.userId }));
  return html`<div class="page">
    <header class="page-head"><h1>End users</h1>
      <div class="head-right"><span class="muted small">${meta ? `${num(meta.total)} user${meta.total === 1 ? '' : 's'}` : ''}</span>
        <button type="button" class="btn" onClick=${() => setQuery({ t: Date.now() })}>Refresh</button></div></header>
    <p class="hint page-hint">The people your agents served, named by <code>metadata.user</code> (or a convention's user attribute) on their events. A row opens the user's traces.</p>
    <div class="toolbar" role="search" aria-label="Filters">
      <${Select} id="eu-range" label="Time" value=${range.key} onChange=${(v) => setQuery({ range: v === '7d' ? '' : v, page: '' })}
        options=${RANGES.map((r) => ({ value: r.key, label: r.label }))} />
      <${FilterInput} id="eu-search" label="User" value=${q.search} placeholder="id starts with" width="s" onCommit=${(v) => setQuery({ search: v, page: '' })} />
      <${SharedFilterInputs} q=${q} prefix="eu" />
    </div>
    <${TagHint} text=${q.tag} />
    ${notServed(list.error) ? html`<${Empty} title="This daemon does not serve end users yet" />` : html`<${ErrorBox} error=${list.error} />`}
    <div class="table-wrap">
      <table class="table clickable" aria-label="End users" aria-busy=${String(list.loading)}>
        <thead><tr>${COLUMNS.map((c) => html`<${SortHeader} c=${c} sort=${sort} order=${order} def="last" />`)}</tr></thead>
        <tbody>${rows.map((u) => html`<tr key=${u.userId} tabindex="0" data-user-id=${u.userId}
            onClick=${() => open(u)} onKeyDown=${(e) => { if (e.key === 'Enter') open(u); }}>
          <td><span class="user-id">${u.userId}</span>
            <div class="small"><${Link} to=${href('/sessions', { ...carried(q, range), user: u.userId })} onClick=${(e) => e.stopPropagation()}>${num(u.sessionCount)} session${u.sessionCount === 1 ? '' : 's'}</${Link}></div>
            <div class="row-more">${tokens(u.totalTokens)} tokens · ${num(u.errorCount)} errors</div></td>
          <td class="num">${num(u.traceCount)}</td>
          <td class="num opt">${num(u.sessionCount)}</td>
          <td class="num opt">${u.errorCount ? html`<span class="pill pill-err">${num(u.errorCount)}</span>` : html`<span class="muted">0</span>`}</td>
          <td class="num opt">${u.totalTokens ? tokens(u.totalTokens) : html`<span class="muted">–</span>`}</td>
          <td class="num">${u.costUsd ? usd(u.costUsd) : html`<span class="muted">–</span>`}</td>
          <td class="opt">${dateTime(u.firstSeen)}</td>
          <td>${dateTime(u.lastSeen)} <span class="muted small nowrap">${ago(u.lastSeen)}</span></td>
        </tr>`)}</tbody>
      </table>
      ${list.loading && !rows.length ? html`<div class="center"><${Spinner} /></div>` : null}
      ${!list.loading && !rows.length && !list.error ? html`<${Empty} title="No end users in this window">
        <p>Name the end user of each run in <code>metadata.user</code> to see what each one costs.</p></${Empty}>` : null}
    </div>
    <${Pager} meta=${meta} page=${page} />
  </div>`;
}
