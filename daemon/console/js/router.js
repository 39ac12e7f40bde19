// Client-side routes under /console/, with every piece of view state in the URL: a
// link or a reload shows the same thing (the daemon answers the page for any path
// under /console/ that asks for HTML). `org` travels with every link, so a deep link
// names the organization it shows.
import { html, useEffect, useState } from './lib.js';

export const BASE = '/console';

const routes = [
  { name: 'live', pattern: ['live'] },
  { name: 'traces', pattern: ['traces'] },
  { name: 'trace', pattern: ['traces', ':id'] },
  { name: 'sessions', pattern: ['sessions'] },
  { name: 'session', pattern: ['sessions', ':id'] },
  { name: 'users', pattern: ['users'] },
  { name: 'analytics', pattern: ['analytics'] },
  { name: 'settings', pattern: ['settings'] },
  { name: 'delivery', pattern: ['delivery'] },
  { name: 'moderation', pattern: ['moderation'] },
  { name: 'spend', pattern: ['spend'] },
  { name: 'alerts', pattern: ['alerts'] },
  { name: 'audit', pattern: ['audit'] },
  { name: 'login', pattern: ['login'] },
];

export function parseLocation(loc = window.location) {
  let rest = loc.pathname.startsWith(BASE) ? loc.pathname.slice(BASE.length) : loc.pathname;
  const parts = rest.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  const query = Object.fromEntries(new URLSearchParams(loc.search));
  if (parts.length === 0) return { name: 'home', params: {}, query };
  for (const r of routes) {
    if (r.pattern.length !== parts.length) continue;
    const params = {};
    const ok = r.pattern.every((seg, i) => {
      if (seg.startsWith(':')) {
        params[seg.slice(1)] = parts[i];
        return true;
      }
      return seg === parts[i];
    });
    if (ok) return { name: r.name, params, query };
  }
  return { name: 'notfound', params: {}, query };
}

const subscribers = new Set();
function changed() {
  for (const fn of subscribers) fn();
}
window.addEventListener('popstate', changed);

// "/traces/x" + {a: 1} → "/console/traces/x?org=..&a=1" (org carried over unless given).
export function href(path, query = {}) {
  const current = new URLSearchParams(window.location.search);
  const q = new URLSearchParams();
  if (!('org' in query) && current.get('org')) q.set('org', current.get('org'));
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `${BASE}${path}${s ? `?${s}` : ''}`;
}

export function navigate(url, { replace = false } = {}) {
  const target = url.startsWith(BASE) ? url : `${BASE}${url}`;
  if (target === window.location.pathname + window.location.search) return;
  if (replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  changed();
}

// Merges `patch` into the current query (empty values remove a key).
export function setQuery(patch, { replace = true } = {}) {
  const q = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || v === null || v === '' || v === false) q.delete(k);
    else q.set(k, String(v));
  }
  const s = q.toString();
  navigate(`${window.location.pathname}${s ? `?${s}` : ''}`, { replace });
}

export function useLocation() {
  const [loc, setLoc] = useState(parseLocation);
  useEffect(() => {
    const fn = () => setLoc(parseLocation());
    subscribers.add(fn);
    return () => subscribers.delete(fn);
  }, []);
  return loc;
}

// An <a> that navigates in place on a plain click; modified clicks open tabs as usual.
export function Link({ to, children, ...rest }) {
  const onClick = (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return html`<a href=${to} onClick=${onClick} ...${rest}>${children}</a>`;
}
