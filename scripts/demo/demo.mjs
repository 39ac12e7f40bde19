// `make demo`'s traffic: sets up a demo organization on a running agent-events daemon,
// fills it with a few hours of agent traffic (scripts/demo/traffic.mjs), then keeps
// publishing about one trace every few seconds so the live screens move, until Ctrl-C.
// Everything goes through the daemon's public API, as an application's would.
//
//   node scripts/demo/demo.mjs --base http://127.0.0.1:8080 [--history 60] [--hours 6]
//        [--every-ms 4000] [--once] [--seed 7] [--email ...] [--password ...]
//
// --once seeds and exits (for tests and benchmarks). What it sets up: an app with one
// channel, an API key, a moderation rule that flags card numbers, a spend ladder close to
// its limit, an alert on errors, and a signed webhook to a receiver this process serves.
import http from 'node:http';
import { conversations, makeTrace, rng } from './traffic.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => {
    if (a.startsWith('--')) pairs.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : true]);
    return pairs;
  }, []));
const base = String(args.base ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const email = String(args.email ?? 'demo@agent-events.local');
const username = 'demo';
const password = String(args.password ?? 'agent-events demo');
const historyTraces = Number(args.history ?? 60);
const hours = Number(args.hours ?? 6);
const everyMs = Number(args.everyMs ?? args['every-ms'] ?? 4000);
const r = rng(Number(args.seed ?? 7));
const log = (...a) => console.log('[demo]', ...a);

async function call(method, path, { token, key, tenant, body } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (key) headers['x-api-key'] = key;
  if (tenant) headers['x-tenant-id'] = String(tenant);
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
  return { status: res.status, json, text };
}
async function must(method, path, opts, ...ok) {
  const res = await call(method, path, opts);
  if (!(ok.length ? ok : [200, 201]).includes(res.status))
    throw new Error(`${method} ${path} answered ${res.status}: ${res.text.slice(0, 500)}`);
  return res.json;
}

// A receiver for the demo's webhook: counts what arrives, so the console's delivery screen
// shows successful attempts.
function startReceiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      if (received <= 3 || received % 25 === 0) log(`webhook delivery ${received} received (${req.headers['webhook-id'] ?? 'no id'})`);
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port })));
}

async function signIn() {
  const reg = await call('POST', '/auth/register', { body: { email, username, password, firstName: 'Demo', lastName: 'User' } });
  if (![201, 409].includes(reg.status) && reg.status !== 422)
    throw new Error(`register answered ${reg.status}: ${reg.text.slice(0, 300)}`);
  const login = await must('POST', '/auth/login', { body: { login: username, password } }, 200);
  const token = login.access_token;
  const me = await must('GET', '/users/me', { token }, 200);
  return { token, org: me.organizationId };
}

async function setUp(token, org, receiverPort) {
  const auth = { token, tenant: org };
  const apps = await must('GET', '/apps', auth, 200);
  let app = (Array.isArray(apps) ? apps : apps.data ?? []).find((a) => a.name === 'Northwind support desk');
  if (!app) app = await must('POST', '/apps', { ...auth, body: { name: 'Northwind support desk' } });
  const appDetail = await must('GET', `/apps/${app.id}`, auth, 200);
  let channel = (appDetail.channels ?? []).find((c) => c.name === 'agents');
  if (!channel) channel = await must('POST', '/channel', { ...auth, body: { name: 'agents', appId: app.id } });
  const key = await must('POST', '/api-keys', { ...auth, body: { name: `demo generator ${new Date().toISOString()}`, scopes: ['publish', 'read', 'subscribe'] } });

  const rules = await must('GET', '/moderation/rules', auth, 200);
  if (!(rules.data ?? []).some((x) => x.name === 'Card numbers'))
    await must('POST', '/moderation/rules', { ...auth, body: { name: 'Card numbers', action: 'redact', detector: 'regex', pattern: '\\b(?:\\d[ -]?){13,16}\\b' } });
  const alerts = await must('GET', '/v2/alerts', auth, 200);
  if (!(alerts.data ?? []).some((x) => x.name === 'Agent errors'))
    await must('POST', '/v2/alerts', { ...auth, body: { name: 'Agent errors', metric: 'error_count', operator: 'gt', threshold: 2, windowMins: Math.min(1440, Math.round(hours * 60)) } });
  const hooks = await must('GET', `/webhooks/endpoints?channelId=${channel.id}`, auth, 200);
  for (const h of hooks.data ?? []) await call('DELETE', `/webhooks/endpoints/${h.id}`, auth);  // the receiver's port is new
  await must('POST', '/webhooks/endpoints', { ...auth, body: { url: `http://127.0.0.1:${receiverPort}/hooks`, channelId: channel.id, eventTypes: ['agent.error', 'agent.handoff'], description: 'demo receiver' } });
  return { app, channel, key: key.key };
}

// The spend ladder: sized from what the history cost, so it starts at about 85 % of its
// limit; the live traffic then walks it through the alert and fallback rungs (soft block: a
// flag, so the demo keeps flowing).
async function spendLadder(token, org) {
  const auth = { token, tenant: org };
  const existing = await must('GET', '/spend-policies', auth, 200);
  for (const p of existing.policies ?? []) if (p.name === 'Daily model budget') return;
  // What the last 24 hours cost, from the trace rollups (core, no plugin needed).
  const since = new Date(Date.now() - 24 * 3600e3).toISOString();
  let spent = 0;
  for (let page = 1; page <= 20; page++) {
    const traces = await must('GET', `/traces?since=${since}&limit=100&page=${page}`, auth, 200);
    spent += (traces.data ?? []).reduce((sum, t) => sum + (t.costUsd ?? 0), 0);
    if ((traces.data ?? []).length < 100) break;
  }
  const limitUsd = Math.max(0.01, Math.round((spent / 0.85) * 10000) / 10000);
  await must('POST', '/spend-policies', { ...auth, body: {
    name: 'Daily model budget', limitUsd, windowType: 'rolling_24h',
    rungs: [{ at_percent: 80, action: 'alert' }, { at_percent: 90, action: 'fallback', fallback_model: 'gpt-4o-mini' },
            { at_percent: 100, action: 'block', block_mode: 'soft' }] } });
  log(`spend ladder: $${limitUsd} a day, ${spent ? Math.round((spent / limitUsd) * 100) : 0} % used`);
}

async function publishBatch(key, channelId, events) {
  for (let i = 0; i < events.length; i += 500) {
    const res = await call('POST', '/events/batch', { key, body: { events: events.slice(i, i + 500).map((e) => ({ ...e, channel_id: channelId })) } });
    if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const { server, port } = await startReceiver();
  const { token, org } = await signIn();
  const { channel, key } = await setUp(token, org, port);
  const start = Date.now() - hours * 3600e3;
  const history = [];
  for (const c of conversations(r, { start, count: historyTraces, spacingMs: (hours * 3600e3) / Math.max(1, historyTraces) }))
    history.push(...makeTrace(r, c));
  await publishBatch(key, channel.id, history);
  await spendLadder(token, org);
  log(`seeded ${historyTraces} traces (${history.length} events) over the last ${hours} h into channel ${channel.id}`);
  log(`console: ${base}/console/   sign in as ${username} / ${password}`);
  if (args.once) {
    server.close();
    return;
  }
  log(`publishing a trace about every ${Math.round(everyMs / 1000)} s; Ctrl-C stops`);
  let stopping = false;
  const stop = () => { stopping = true; server.close(); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const live = conversations(r, { start: Date.now(), count: Number.MAX_SAFE_INTEGER, spacingMs: everyMs });
  let published = 0;
  while (!stopping) {
    const c = live.next().value;
    c.at = Date.now();
    // Events go out as they happen, so the live tail and the waterfall grow step by step.
    for (const e of makeTrace(r, c)) {
      const wait = Date.parse(e.timestamp) - Date.now();
      if (wait > 0) await sleep(wait);
      if (stopping) break;
      let res;
      try {
        res = await call('POST', '/event', { key, body: { ...e, channel_id: channel.id } });
      } catch (err) {
        if (stopping) break;  // Ctrl-C reaches the daemon too: it may be gone already
        throw err;
      }
      if (res.status !== 201) log(`publish answered ${res.status}: ${res.text.slice(0, 200)}`);
      else published++;
    }
    if (published % 100 < 12) log(`${published} live events published`);
    await sleep(everyMs * (0.5 + r()));
  }
}

main().catch((e) => {
  console.error('[demo] failed:', e.message);
  process.exit(1);
});
