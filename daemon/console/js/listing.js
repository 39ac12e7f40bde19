// What the server-sorted, paged lists share (sessions, end users): a sortable column
// header that keeps the order in the URL, and a pager.
import { html } from './lib.js';
import { setQuery } from './router.js';
import { Icon } from './ui.js';
import { num } from './format.js';

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
