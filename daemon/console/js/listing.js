// What the server-sorted, paged lists share (sessions, end users): the request built from
// the URL, a sortable column header that keeps the order in the URL, and a pager.
import { api } from './api.js';
import { html, useMemo } from './lib.js';
import { setQuery } from './router.js';
import { Icon, useAsync } from './ui.js';
import { num, rangeOf } from './format.js';

export const LIST_LIMIT = 50;

// GET path for the URL's query q: its time window (range, default 7 days), sort (default
// last), order, page, and the view's own filter ({user} or {search}); refetched when any of
// them or q.t (Refresh) changes.
export function useServerList(q, path, filter) {
  const range = rangeOf(q.range || '7d');
  const sort = q.sort || 'last';
  const order = q.order || 'desc';
  const page = Math.max(1, Number(q.page) || 1);
  const [filterKey, filterValue] = Object.entries(filter)[0];
  const query = useMemo(() => ({
    since: new Date(Date.now() - range.ms).toISOString(), [filterKey]: filterValue, sort, order, page, limit: LIST_LIMIT,
  }), [range.key, filterKey, filterValue, sort, order, page, q.t]);
  const list = useAsync(() => api.get(path, query), [query]);
  return { range, sort, order, page, list, rows: list.data?.data || [], meta: list.data?.meta };
}

// c: {key, label, num, opt, sortable}; sort/order: the current ones; def: the default key.
export function SortHeader({ c, sort, order, def }) {
  const cls = `${c.num ? 'num' : ''}${c.opt ? ' opt' : ''}`;
  if (!c.sortable) return html`<th scope="col" class=${cls}>${c.label}</th>`;
  const active = sort === c.key;
  const next = active && order === 'desc' ? 'asc' : 'desc';
  const go = () => setQuery({ sort: c.key === def && next === 'desc' ? '' : c.key, order: next === 'desc' ? '' : next, page: '' });
  return html`<th scope="col" class=${cls} aria-sort=${active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
    <button type="button" class="th-sort" onClick=${go}>${c.label}<span class="sort-mark" aria-hidden="true">${active ? (order === 'asc' ? '▲' : '▼') : ''}</span></button></th>`;
}

export function Pager({ meta, page }) {
  if (!meta || meta.totalPages <= 1) return null;
  return html`<nav class="pager" aria-label="Pages">
    <button type="button" class="btn" disabled=${page <= 1} onClick=${() => setQuery({ page: page - 1 > 1 ? page - 1 : '' }, { replace: false })}><${Icon} name="chevron" size=${12} />Previous</button>
    <span class="muted">Page ${page} of ${num(meta.totalPages)}</span>
    <button type="button" class="btn" disabled=${page >= meta.totalPages} onClick=${() => setQuery({ page: page + 1 }, { replace: false })}>Next<${Icon} name="chevron" size=${12} /></button>
  </nav>`;
}

// A route the daemon does not serve yet (an older daemon under a newer console) says so.
export const notServed = (error) => error && (error.status === 404 || error.status === 405);
