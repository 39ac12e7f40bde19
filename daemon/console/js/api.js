// The API client. The access token lives in this module's memory only (never in
// storage, a readable cookie or a URL); a reload gets a new one from POST /auth/refresh,
// which reads the HttpOnly refresh cookie the daemon set at login. Refreshes are
// serialized across tabs with the Web Locks API: refresh tokens rotate, and two tabs
// presenting the same one would look like a stolen token and end the session.
//
// Every call names the organization it acts on (x-tenant-id) when the URL names one, so
// one tab can look at one organization and another tab at another.

let accessToken = null;
let refreshTimer = 0;
let refreshing = null;
let tenant = null;
const listeners = new Set();

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
  // "field: message" lines of a 422, else the detail.
  describe() {
    const errs = this.problem.errors;
    if (Array.isArray(errs) && errs.length) {
      return errs.map((e) => `${String(e.location || '').replace(/^body\./, '')}: ${e.message}`).join('; ');
    }
    return this.message;
  }
}

export function onAuthChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
function notify() {
  for (const fn of listeners) fn(accessToken !== null);
}
export const signedIn = () => accessToken !== null;
export function setTenant(orgId) {
  tenant = orgId ? String(orgId) : null;
}
export const currentTenant = () => tenant;

function adopt(answer) {
  accessToken = answer.access_token;
  clearTimeout(refreshTimer);
  // Refresh a minute before the token expires (or at 80 % of a short lifetime).
  const ttl = Number(answer.expires_in) || 900;
  refreshTimer = setTimeout(() => refresh().catch(() => {}), Math.max(5, Math.min(ttl - 60, ttl * 0.8)) * 1000);
  notify();
}
function forget() {
  const was = accessToken !== null;
  accessToken = null;
  clearTimeout(refreshTimer);
  if (was) notify();
}

async function send(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin', cache: 'no-store',
  });
  return res;
}

async function parse(res) {
  if (res.status === 204) return null;
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

// The daemon sets aev_session=1 (readable, not a credential) next to the HttpOnly
// refresh cookie: without it there is nothing to refresh, and no 401 to provoke.
const hasSession = () => document.cookie.split(';').some((c) => c.trim() === 'aev_session=1');
function dropSessionMarker() {
  document.cookie = 'aev_session=; Path=/; SameSite=Strict; Max-Age=0';
}

// A new access token from the refresh cookie; resolves true when signed in.
export function refresh() {
  if (refreshing) return refreshing;
  const run = async () => {
    if (!hasSession()) {
      forget();
      return false;
    }
    const res = await send('POST', '/auth/refresh', {});
    if (res.ok) {
      adopt(await res.json());
      return true;
    }
    dropSessionMarker(); // expired or revoked: sign in again
    forget();
    return false;
  };
  const locked = navigator.locks ? navigator.locks.request('aev-refresh', run) : run();
  refreshing = locked.catch(() => {
    forget();
    return false;
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

export async function login(loginName, password) {
  const res = await send('POST', '/auth/login', { login: loginName, password, refresh_cookie: true });
  adopt(await parse(res));
}

export async function register(fields) {
  return parse(await send('POST', '/auth/register', fields));
}

export async function logout() {
  try {
    if (hasSession()) await send('POST', '/auth/logout', {});
  } finally {
    dropSessionMarker();
    forget();
  }
}

function withQuery(path, query) {
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

async function call(method, path, { query, body } = {}, retried = false) {
  if (!accessToken && !(await refresh())) throw new ApiError(401, { detail: 'Signed out.' });
  const headers = { Accept: 'application/json', Authorization: `Bearer ${accessToken}` };
  if (tenant) headers['x-tenant-id'] = tenant;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(withQuery(path, query), {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin', cache: 'no-store',
  });
  if (res.status === 401 && !retried) {
    // Expired or revoked: one refresh, one retry.
    if (await refresh()) return call(method, path, { query, body }, true);
  }
  return parse(res);
}

export const api = {
  get: (path, query) => call('GET', path, { query }),
  post: (path, body, query) => call('POST', path, { body, query }),
  patch: (path, body) => call('PATCH', path, { body }),
  del: (path) => call('DELETE', path),
};

// Public, unauthenticated JSON (the OpenAPI document: which dimensions exist).
export async function publicJson(path) {
  return parse(await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }));
}
