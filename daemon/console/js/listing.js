// What the server-sorted, paged lists share (sessions, end users): the request built from
// the URL, the filters they share with the traces list, a sortable column header that keeps
// the order in the URL, and a pager.
import { api } from './api.js';
import { html, useMemo } from './lib.js';
import { setQuery } from './router.js';
import { FilterInput, Icon, parseTag, useAsync } from './ui.js';
import { num, rangeOf } from './format.js';

export const LIST_LIMIT = 50;

// The filters sessions and end users share with the traces list, as the URL keeps them
// (model, environment, tag=key=value) and as the daemon takes them.
export function sharedFilters(q) {
  const tag = parseTag(q.tag);
  return { model: q.model, environment: q.environment, filterTagKey: tag?.key, filterTagValue: tag?.value };
}

// Their fields, with the traces list's look (ids `<prefix>-model`, `-env`, `-tag`).
export function SharedFilterInputs({ q, prefix }) {
  const field = (id, key, label, placeholder = 'any') => html`<${FilterInput} id=${`${prefix}-${id}`} label=${label} value=${q[key]}
    placeholder=${placeholder} width="s" onCommit=${(v) => setQuery({ [key]: v, page: '' })} />`;
  return html`${field('model', 'model', 'Model')}${field('env', 'environment', 'Environment')}${field('tag', 'tag', 'Tag', 'key=value')}`;
}

// The same filters (and time window) for a link to another list, so its rows count alike.
export const carried = (q, range) => ({ range: range.key, model: q.model, environment: q.environment, tag: q.tag });

// GET path for the URL's query q: its time window (range, default 7 days), sort (default
// last), order, page, the shared filters and the view's own ({user} or {search});
// refetched when any of them or q.t (Refresh) changes.
export function useServerList(q, path, filter) {
  const range = rangeOf(q.range || '7d');
  const sort = q.sort || 'last';
  const order = q.order || 'desc';
  const page = Math.max(1, Number(q.page) || 1);
  const filters = { ...sharedFilters(q), ...filter };
  const filterKey = JSON.stringify(filters);
  const query = useMemo(() => ({
    since: new Date(Date.now() - range.ms).toISOString(), ...filters, sort, order, page, limit: LIST_LIMIT,
  }), [range.key, filterKey, sort, order, page, q.t]);
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
