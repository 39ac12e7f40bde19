// The console's weight and the trace detail's render time (a report, not a pass/fail test).
//
//   node bench/console.mjs [path/to/agent-eventsd]     (default build/daemon/agent-eventsd)
//
// 1. Bytes on the wire: the page and every file it can load (all of daemon/console/'s
//    served files), fetched as a browser does (Accept-Encoding: gzip), against the issue's
//    budget of 100 KB gzip; raw sizes beside them. The third-party share is the baseline.
//    Then what a first visit to each screen fetches (screens load on demand).
// 2. Render: a trace of 2,000 events (1,000 spans of two events each, nested four deep,
//    their content the demo generator's agent traffic: 370 LLM calls with their messages)
//    opened in headless Chromium; time from navigation start to the waterfall on screen
//    (all 1,000 rows counted by the treegrid, the first screen of them drawn), median of 5
//    loads, against the budget of 1 s; then End → the last row drawn, and a click on an LLM
//    span → its conversation drawn. 3. A session of 50 traces: navigation → every turn on
//    screen (when the daemon serves GET /sessions/{id}). First visits: budget 60 KB gzip.
//    AEV_CONSOLE_DIR=dir
//    serves the console from that directory (console.dir). Needs tests/browser/node_modules.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.AEV_DAEMON_BIN = path.resolve(process.argv[2] || path.join(root, 'build/daemon/agent-eventsd'));
const { Daemon, CHROMIUM_ARGS, chromiumBin } = await import(path.join(root, 'tests/browser/support.mjs'));
const { eventPool, rng } = await import(path.join(root, 'scripts/demo/traffic.mjs'));
const require = createRequire(path.join(root, 'tests/browser/package.json'));
const { chromium } = require('playwright-core');

const daemon = new Daemon({ 'log.level': 'warn', ...(process.env.AEV_CONSOLE_DIR ? { 'console.dir': path.resolve(process.env.AEV_CONSOLE_DIR) } : {}) });
await daemon.start();
try {
  // ---------------------------------------------------------------- sizes
  const page = await (await fetch(`${daemon.base}/console/`, { headers: { 'Accept-Encoding': 'gzip' } })).text();
  const base = page.match(/\/console\/a\/(?:[0-9a-f]{16}|dev)\//)[0];
  const consoleDir = process.env.AEV_CONSOLE_DIR ? path.resolve(process.env.AEV_CONSOLE_DIR) : path.join(root, 'daemon/console');
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|mjs|css|svg|html|txt)$/.test(e.name) && e.name !== 'index.html') files.push(path.relative(consoleDir, p));
    }
  };
  walk(consoleDir);
  const http = await import('node:http');
  const wire = (url) => new Promise((resolve, reject) => {
    http.get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      let n = 0;
      res.on('data', (c) => { n += c.length; });
      res.on('end', () => resolve({ bytes: n, gzip: res.headers['content-encoding'] === 'gzip', status: res.statusCode }));
    }).on('error', reject);
  });
  const rows = [];
  const pageWire = await wire(`${daemon.base}/console/`);
  rows.push({ file: 'index.html', wire: pageWire.bytes, raw: Buffer.byteLength(page) });
  for (const f of files.sort()) {
    const w = await wire(`${daemon.base}${base}${f}`);
    if (w.status !== 200) throw new Error(`${f}: ${w.status}`);
    rows.push({ file: f, wire: w.bytes, raw: fs.statSync(path.join(consoleDir, f)).size });
  }
  const sum = (list, k) => list.reduce((a, r) => a + r[k], 0);
  const isVendor = (r) => r.file.startsWith('vendor/');
  const shipped = rows.filter((r) => r.file !== 'vendor/licenses.txt'); // served, never loaded by the page
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log('## Console bytes (gzip on the wire; raw in brackets)');
  for (const r of rows) console.log(`  ${r.file.padEnd(28)} ${kb(r.wire).padStart(9)}  (${kb(r.raw)})`);
  const total = sum(shipped, 'wire');
  console.log(`  every file of every screen (what a visit to all ten screens fetches): ${kb(total)} gzip (${kb(sum(shipped, 'raw'))} raw); budget 100 KB → ratio ${(total / 102400).toFixed(2)}`);
  console.log(`  of which third-party (Preact, hooks, htm, uPlot): ${kb(sum(shipped.filter(isVendor), 'wire'))}; our own code and CSS: ${kb(sum(shipped.filter((r) => !isVendor(r)), 'wire'))}`);

  // ---------------------------------------------------------------- render of a 2,000-event trace
  const id = `${process.pid}`;
  const user = { username: `bench_${id}`, email: `bench-${id}@example.test`, password: `pw-${id}-Secret!` };
  const reg = await daemon.expect(201, 'POST', '/auth/register', user);
  const { access_token: token } = await daemon.expect(200, 'POST', '/auth/login', { login: user.username, password: user.password });
  const app = await daemon.expect(201, 'POST', '/apps', { name: 'bench' }, token);
  const ch = await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'bench' }, token);
  const traceId = `bench-${id}`;
  const t0 = Date.now() - 600_000;
  // The spans' content is the demo generator's agent traffic (scripts/demo/traffic.mjs:
  // LLM calls with their messages, tool calls with arguments and results, hand-offs),
  // threaded into one deep trace: the generator's traces are 10-16 events, this shape
  // stresses the waterfall.
  const pool = eventPool(rng(29), { start: t0, n: 1000 });
  const events = [];
  for (let s = 0; s < 1000; s += 1) {
    const parent = s === 0 ? undefined : s < 10 ? 's0' : s < 100 ? `s${s % 10}` : `s${10 + (s % 90)}`;
    const start = t0 + s * 200;
    const common = { channel_id: ch.id, traceId, spanId: `s${s}`, parentSpanId: parent, agentId: pool[s].agentId };
    const { identifier, eventType, payload, metadata } = pool[s];
    events.push({ ...common, identifier, eventType, timestamp: new Date(start).toISOString(), payload,
      metadata: { ...metadata, duration_ms: metadata?.duration_ms ?? 150 + (s % 40) } });
    events.push({ ...common, identifier: `${identifier}.end`, eventType: 'agent.tool_call.end', timestamp: new Date(start + 150).toISOString(), payload: { ok: true } });
  }
  const llmCalls = events.filter((e) => e.payload?.messages).length;
  // The spans whose panel shows an answer (an LLM call that did not fail), for the click below.
  const answered = events.filter((e) => e.payload?.messages?.output?.length && e.spanId !== 's0').map((e) => `s:${e.spanId}`);
  for (let i = 0; i < events.length; i += 500) {
    const r = await daemon.expect(200, 'POST', '/events/batch', { events: events.slice(i, i + 500) }, token);
    if (r.failed) throw new Error(`seeding failed: ${JSON.stringify(r.results.find((x) => x.status !== 201))}`);
  }
  const browser = await chromium.launch({ executablePath: chromiumBin, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const tab = await context.newPage();
  await tab.goto(`${daemon.base}/console/`);
  await tab.getByLabel('E-mail or username').fill(user.username);
  await tab.getByLabel('Password', { exact: true }).fill(user.password);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await tab.locator('nav.side').waitFor();
  // What opening the console costs: each screen loads only its own module (js/main.js),
  // so a first visit fetches the shell and one screen. Measured per screen in a fresh
  // browser context (empty cache; a deep link, the sign-in form, then the screen): the
  // console's own files as they came over the wire (gzip).
  const firstVisit = {};
  for (const screen of ['live', 'traces', `traces/${traceId}`, 'sessions', 'users', 'analytics', 'delivery', 'moderation', 'settings']) {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await fresh.newPage();
    const responses = [];
    p.on('response', (r) => { if (new URL(r.url()).pathname.startsWith('/console/')) responses.push(r); });
    await p.goto(`${daemon.base}/console/${screen}?org=${reg.organizationId}`);
    await p.getByLabel('E-mail or username').fill(user.username);
    await p.getByLabel('Password', { exact: true }).fill(user.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.locator('nav.side').waitFor();
    await p.waitForLoadState('networkidle');
    let bytes = 0;
    for (const r of responses) bytes += (await r.request().sizes()).responseBodySize;
    firstVisit[screen] = { bytes, files: responses.length };
    await fresh.close();
  }
  console.log('## First visit to a screen (empty cache; the console\'s files on the wire, gzip)');
  for (const [screen, v] of Object.entries(firstVisit))
    console.log(`  /console/${(screen.startsWith('traces/') ? 'traces/<id>' : screen).padEnd(12)} ${kb(v.bytes).padStart(9)} in ${v.files} files; budget 60 KB → ratio ${(v.bytes / 61440).toFixed(2)}`);

  // Timed: navigation start → the treegrid announces all 1,001 rows (aria-rowcount) and the
  // rows of the first screen are drawn. Rows are virtualised (daemon/console/js/virtual.js):
  // only those near the viewport are in the DOM, so the figure no longer grows with the
  // trace. Split into the fetch of the events (resource timing) and what follows it.
  const times = [];
  const fetched = [];
  for (let run = 0; run < 5; run += 1) {
    await tab.goto(`${daemon.base}/console/traces/${traceId}?org=${reg.organizationId}`);
    await tab.waitForFunction(() => document.querySelector('[role=treegrid][aria-rowcount="1001"]')
      && document.querySelectorAll('.wf-row[data-key]').length >= 20, null, { timeout: 60_000, polling: 'raf' });
    const t = await tab.evaluate(() => {
      const ev = performance.getEntriesByType('resource').find((e) => /\/traces\/[^/]+\/events$/.test(new URL(e.name).pathname));
      return { done: performance.now(), events: ev ? ev.responseEnd : NaN };
    });
    times.push(t.done);
    fetched.push(t.events);
  }
  const med = (list) => [...list].sort((a, b) => a - b)[2];
  times.sort((a, b) => a - b);
  const inDom = await tab.locator('.wf-row[data-key]').count();
  // The other end: End selects the last row; time until it is drawn with its neighbours.
  await tab.locator('.wf-row[data-key]').first().click();
  const endMs = await tab.evaluate(() => new Promise((resolve) => {
    const t0 = performance.now();
    document.querySelector('.wf-row[data-key]').dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    const check = () => {
      const last = document.querySelector('.wf-row[aria-rowindex="1001"]');
      const near = document.querySelector('.wf-row[aria-rowindex="990"]');
      if (last && near && document.activeElement === last) resolve(performance.now() - t0);
      else requestAnimationFrame(check);
    };
    check();
  }));
  // An LLM call's panel: the conversation of a span deep in the trace, from the click.
  const panelMs = [];
  for (let run = 0; run < 5; run += 1) {
    await tab.goto(`${daemon.base}/console/traces/${traceId}?org=${reg.organizationId}`);
    await tab.waitForFunction(() => document.querySelectorAll('.wf-row[data-key]').length >= 20, null, { timeout: 60_000 });
    const key = await tab.evaluate((keys) => [...document.querySelectorAll('.wf-row[data-key]')].map((r) => r.dataset.key).find((k) => keys.includes(k)), answered);
    panelMs.push(await tab.evaluate((k) => new Promise((resolve) => {
      const t = performance.now();
      document.querySelector(`.wf-row[data-key="${k}"]`).click();
      const check = () => (document.querySelector('[data-testid=conversation] .msg[data-role=assistant]') ? resolve(performance.now() - t) : requestAnimationFrame(check));
      check();
    }), key));
  }
  panelMs.sort((a, b) => a - b);
  console.log(`## Trace detail, 2,000 events (1,000 spans, ${llmCalls} of them LLM calls with messages, from scripts/demo/traffic.mjs)`);
  console.log(`  click on an LLM span → its conversation drawn: median ${Math.round(panelMs[2])} ms, range ${Math.round(panelMs[0])}–${Math.round(panelMs[4])} ms`);
  console.log(`  navigation start → waterfall of 1,000 rows on screen (sign-in by cookie, 2 API calls, render): median ${Math.round(times[2])} ms, range ${Math.round(times[0])}–${Math.round(times[4])} ms; budget 1000 ms → ratio ${(times[2] / 1000).toFixed(2)}`);
  console.log(`    of which up to the events' arrival (page, modules, sign-in, GET …/events of ${(events.length)} events): median ${Math.round(med(fetched))} ms; after it (JSON, spans, rows): ${Math.round(times[2] - med(fetched))} ms`);
  console.log(`  rows in the DOM: ${inDom} of 1,000 (virtualised); End → last row focused and drawn: ${Math.round(endMs)} ms`);

  // ---------------------------------------------------------------- a session of 50 traces
  const sessionId = `bench-session-${id}`;
  const turns = [];
  for (let i = 0; i < 50; i += 1) {
    turns.push({ channel_id: ch.id, traceId: `${sessionId}-t${i}`, identifier: 'answer', eventType: 'agent.message', timestamp: new Date(t0 + i * 60_000).toISOString(),
      payload: { messages: { input: [{ role: 'user', content: `Turn ${i}: ${'a question about the order. '.repeat(10)}` }], output: [{ role: 'assistant', content: `Answer ${i}: ${'the order ships today. '.repeat(12)}` }] } },
      metadata: { session: sessionId, user: 'bench-user', model: 'gpt-4o-mini', usage: { input_tokens: 80, output_tokens: 60 } } });
  }
  await daemon.expect(200, 'POST', '/events/batch', { events: turns }, token);
  const served = await daemon.call('GET', `/sessions/${sessionId}`, undefined, token);
  if (served.status !== 200) {
    console.log(`## Session of 50 traces: not measured (GET /sessions/{id} answered ${served.status}: this daemon does not serve sessions)`);
  } else {
    const sessionTimes = [];
    for (let run = 0; run < 5; run += 1) {
      await tab.goto(`${daemon.base}/console/sessions/${sessionId}?org=${reg.organizationId}`);
      await tab.waitForFunction(() => document.querySelectorAll('[data-testid=session-turn]').length === 50, null, { timeout: 60_000, polling: 'raf' });
      sessionTimes.push(await tab.evaluate(() => performance.now()));
    }
    sessionTimes.sort((a, b) => a - b);
    console.log('## Session of 50 traces');
    console.log(`  navigation start → all 50 turns (question and answer) on screen: median ${Math.round(sessionTimes[2])} ms, range ${Math.round(sessionTimes[0])}–${Math.round(sessionTimes[4])} ms; budget 1000 ms → ratio ${(sessionTimes[2] / 1000).toFixed(2)}`);
  }
  await browser.close();
} finally {
  await daemon.stop();
  daemon.cleanup();
}
