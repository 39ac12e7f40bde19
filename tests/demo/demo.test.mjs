// make demo under a test (node --test; run by CTest as demo_run): scripts/demo/run.sh
// starts the built daemon in a temporary data dir with the demo's traffic; within 30 s
// the daemon's own API shows a trace with an LLM call holding its messages, a hand-off, a
// session of several traces, a fired alert and a moderation rule that fired; then a live
// tail receives new events. AEV_DAEMON_BIN names the daemon.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const daemon = process.env.AEV_DAEMON_BIN;

const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, deadline, fn) {
  let last;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) { last = e; }
    await sleep(500);
  }
  assert.fail(`within 30 s of make demo: ${what}${last ? ` (${last.message})` : ''}`);
}

test('make demo fills the console within 30 s and keeps it live', { timeout: 120_000 }, async () => {
  assert.ok(daemon, 'AEV_DAEMON_BIN is not set');
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aev-demo-'));
  const output = [];
  const demo = spawn('bash', [path.join(root, 'scripts/demo/run.sh'), daemon], {
    env: { ...process.env, DEMO_PORT: String(port), DEMO_DATA_DIR: dataDir, DEMO_ARGS: '--every-ms 1500' },
    stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  demo.stdout.on('data', (d) => output.push(String(d)));
  demo.stderr.on('data', (d) => output.push(String(d)));
  const started = Date.now();
  const deadline = started + 30_000;
  const base = `http://127.0.0.1:${port}`;
  try {
    // The sign-in the demo prints.
    await until('the demo printed the console sign-in', deadline, () => {
      if (/\[demo\] failed/.test(output.join(''))) assert.fail(output.join(''));
      return /sign in as demo \/ agent-events demo/.test(output.join(''));
    });
    const login = await (await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'demo', password: 'agent-events demo' }) })).json();
    const me = await (await fetch(`${base}/users/me`, { headers: { authorization: `Bearer ${login.access_token}` } })).json();
    const headers = { authorization: `Bearer ${login.access_token}`, 'x-tenant-id': String(me.organizationId) };
    const get = async (p) => {
      const r = await fetch(base + p, { headers });
      assert.equal(r.status, 200, `GET ${p}: ${r.status}`);
      return r.json();
    };

    const traces = (await get('/traces?limit=100')).data;
    assert.ok(traces.length >= 20, `${traces.length} traces`);
    assert.ok(traces.some((t) => t.handoffCount > 0), 'no trace with a hand-off');
    assert.ok(traces.some((t) => t.errorCount > 0), 'no trace with an error');
    // An LLM call holding its messages, and sessions of several traces, from the events.
    const bySession = new Map();
    let withMessages = null;
    for (const t of traces.slice(0, 40)) {
      for (const e of await get(`/traces/${t.traceId}/events`)) {
        if (e.eventType === 'agent.message' && e.payload?.messages?.input?.length && e.payload?.messages?.output?.[0]?.content) withMessages ??= e;
        const s = e.metadata?.session;
        if (s) bySession.set(s, (bySession.get(s) ?? new Set()).add(t.traceId));
      }
    }
    assert.ok(withMessages, 'no LLM call with input and output messages');
    assert.ok(withMessages.metadata.model && withMessages.metadata.usage?.input_tokens > 0, 'the LLM call has no model or usage');
    assert.ok([...bySession.values()].some((set) => set.size >= 2), 'no session of several traces');
    assert.ok((await get('/moderation/violations?limit=1')).meta.total > 0, 'the moderation rule never fired');
    const policy = (await get('/spend-policies')).policies.find((p) => p.name === 'Daily model budget');
    assert.ok(policy && policy.currentSpendUsd >= 0.8 * policy.limitUsd, 'no spend ladder near its limit');
    await until('the error alert fired', deadline, async () => (await get('/v2/alerts')).data.some((a) => a.state === 'firing'));

    // The live tail: new events arrive on a fresh subscription.
    const channel = traces[0].channelId ?? (await get(`/traces/${traces[0].traceId}/events`))[0].channelId;
    const stream = await fetch(`${base}/channel/${channel}/subscribe`, { headers });
    assert.equal(stream.status, 200);
    const reader = stream.body.getReader();
    let text = '';
    const liveDeadline = Date.now() + 20_000;
    while (!/\nid: \d+/.test(`\n${text}`) && Date.now() < liveDeadline) {
      const { value, done } = await Promise.race([reader.read(), sleep(liveDeadline - Date.now()).then(() => ({ done: true }))]);
      if (done) break;
      text += Buffer.from(value).toString();
    }
    reader.cancel().catch(() => {});
    assert.match(`\n${text}`, /\nid: \d+/, 'the live tail received no event within 20 s');
    console.log(`make demo: seeded and checked in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.ok(!output.join('').includes('[demo] failed'), output.join(''));
  } finally {
    try { process.kill(-demo.pid, 'SIGINT'); } catch { /* already gone */ }
    await new Promise((r) => { demo.once('exit', r); setTimeout(r, 10_000); });
    rmSync(dataDir, { recursive: true, force: true });
  }
});
