// The web console in a real browser: Debian's headless Chromium, driven by
// playwright-core, against agent-eventsd serving /console/ itself.
//
//   - a published event appears in the live tail soon after its 201 (p95 over 50
//     publishes, reported; a missing row fails)
//   - with the stream cut again and again while 100 events are published, the tail
//     shows each exactly once, in order, and "0 missed"
//   - the waterfall's rows follow start order with children after parents; a span
//     published while the page is open appears and no other row moves
//   - no JWT or API key in storage, script-readable cookies or any request URL; only
//     subscribe URLs carry a stream token, and the daemon's log never shows one
//   - every screen: no CSP violation, no console error, no serious or critical axe-core
//     finding; keyboard navigation; screenshots light and dark (AEV_SCREENSHOT_DIR)
//   - another organization's data never appears
//   - from nothing: sign up, create an app, a channel and a key in Settings, publish with
//     the key, see the event live, open its trace, find it in analytics
//
//   AEV_DAEMON_BIN=build/daemon/agent-eventsd AEV_SCREENSHOT_DIR=/tmp/shots \
//     node --test tests/browser/console.test.mjs
// (AEV_CONSOLE_DIR=daemon/console serves the console's files from the source tree.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  axeCheck as axeCheckWith, axeSource, cleanPage, consoleDaemon, consolePage, cuttableRelay, daemonBin, launchChromium,
  newUser as newUserOf, shot, SHOTS, signIn as signInTo, sleep, stopDaemon, uid, VIEWPORT, WAIT,
} from './support.mjs';
import { conversations, makeTrace, rng } from '../../scripts/demo/traffic.mjs';

let daemon;
let browser;
const report = {}; // figures written next to the screenshots

// ---------------------------------------------------------------- API set-up helpers

const newUser = (tag) => newUserOf(daemon, tag);

async function newChannel(user, appName, channelName) {
  const app = await daemon.expect(201, 'POST', '/apps', { name: appName }, user.token);
  const ch = await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: channelName }, user.token);
  return { appId: app.id, channelId: ch.id };
}

async function newKey(user) {
  const k = await daemon.expect(201, 'POST', '/api-keys', { name: `key-${uid()}`, scopes: ['publish', 'subscribe', 'read'] }, user.token);
  return k.key;
}

async function publishWithKey(key, body) {
  const r = await fetch(`${daemon.base}/event`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': key }, body: JSON.stringify(body),
  });
  const text = await r.text();
  assert.equal(r.status, 201, `publish → ${r.status} ${text}`);
  return JSON.parse(text);
}

// ---------------------------------------------------------------- browser helpers

// The shared helpers (support.mjs), bound to this file's daemon, wait and axe-core.
const signIn = (page, user, where = '/console/live') => signInTo(page, daemon, user, where, WAIT);
const axeCheck = (page, what) => axeCheckWith(page, what, axeSource());

// ---------------------------------------------------------------- set-up

let alice; // first user: instance admin, org with seeded data
let aliceKey;
let aliceMain; // {appId, channelId}
let bob; // another organization
let bobSecret;
let bobTrace;
let seededTrace;

before(async () => {
  assert.ok(daemonBin, 'AEV_DAEMON_BIN must name the built agent-eventsd');
  daemon = consoleDaemon();
  await daemon.start();
  browser = await launchChromium();

  alice = await newUser('alice');
  aliceMain = await newChannel(alice, 'support-bot', 'prod');
  aliceKey = await newKey(alice);

  bob = await newUser('bob');
  const bobCh = await newChannel(bob, 'bob-private-app', 'bob-private-channel');
  const bobKey = await newKey(bob);
  bobSecret = `B-SECRET-${uid()}`;
  bobTrace = `bob-trace-${uid()}`;
  await publishWithKey(bobKey, {
    identifier: bobSecret, payload: { text: bobSecret }, channel_id: bobCh.channelId, eventType: 'agent.start',
    agentId: 'bob-agent-secret', traceId: bobTrace, metadata: { model: 'bob-model-secret', usage: { input_tokens: 5, output_tokens: 5 } },
  });

  // A finished trace with nesting, timings, tokens, cost and an error (for the screens).
  seededTrace = `demo-${uid()}`;
  const t0 = Date.now() - 90_000;
  const at = (ms) => new Date(t0 + ms).toISOString();
  const ev = (identifier, eventType, span, parent, start, extra = {}) => ({
    identifier, eventType, channel_id: aliceMain.channelId, traceId: seededTrace, spanId: span, parentSpanId: parent,
    agentId: extra.agent || 'planner', timestamp: at(start), payload: extra.payload || { step: identifier }, metadata: extra.metadata || {},
  });
  const seed = [
    ev('run', 'agent.start', 'root', undefined, 0, { metadata: { duration_ms: 4200 }, payload: { input: 'Refund order 1042' } }),
    ev('plan', 'agent.message', 'plan', 'root', 120, { metadata: { duration_ms: 900, model: 'gpt-4o', usage: { input_tokens: 1200, output_tokens: 180 }, cost_usd: 0.0048 } }),
    ev('lookup_order', 'agent.tool_call.start', 'tool1', 'root', 1100, { metadata: { duration_ms: 640, tool: 'lookup_order' } }),
    ev('db.query', 'agent.tool_call.start', 'db', 'tool1', 1180, { metadata: { duration_ms: 420 } }),
    ev('refund', 'agent.tool_call.start', 'tool2', 'root', 1900, { metadata: { duration_ms: 300, tool: 'refund', status: 'error' }, payload: { error: 'card declined' } }),
    ev('answer', 'agent.message', 'answer', 'root', 2400, { metadata: { duration_ms: 1650, model: 'gpt-4o-mini', usage: { input_tokens: 2100, output_tokens: 420 }, cost_usd: 0.0011 } }),
  ];
  for (const b of seed) await publishWithKey(aliceKey, b);
  // Some history for the tail and analytics: the demo's generated agent traffic
  // (scripts/demo/traffic.mjs, seed 29), four conversations' traces of the last hour.
  const r = rng(29);
  for (const c of conversations(r, { start: Date.now() - 3_600_000, count: 4, spacingMs: 600_000 })) {
    for (const e of makeTrace(r, c)) await publishWithKey(aliceKey, { ...e, channel_id: aliceMain.channelId });
  }
});

after(async () => {
  if (SHOTS) fs.writeFileSync(path.join(SHOTS, 'report.json'), JSON.stringify(report, null, 2));
  if (browser) await browser.close().catch(() => {});
  if (daemon) await stopDaemon(daemon);
});

// ---------------------------------------------------------------- tests

test('sign-in keeps no credential at rest or in a URL, and a reload stays signed in', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, alice);
  for (const p of ['/console/traces', `/console/traces/${seededTrace}`, '/console/analytics', '/console/settings', '/console/live']) {
    await page.goto(`${daemon.base}${p}?org=${alice.orgId}`);
    await page.locator('nav.side').waitFor({ timeout: WAIT }); // a reload: signed in again through the cookie
    await page.locator('main .page, main .page-split').first().waitFor({ timeout: WAIT });
    await sleep(400);
  }
  await page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: WAIT });

  const stored = await page.evaluate(async () => ({
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
    cookie: document.cookie,
    idb: indexedDB.databases ? (await indexedDB.databases()).map((d) => d.name) : [],
  }));
  for (const [where, text] of Object.entries(stored)) {
    const s = JSON.stringify(text);
    assert.ok(!/eyJ[A-Za-z0-9_-]{10,}/.test(s), `a JWT in ${where}: ${s}`);
    assert.ok(!s.includes('aes_'), `an API key in ${where}`);
  }
  assert.ok(!stored.cookie.includes('aev_refresh'), 'the refresh cookie is readable by script');
  assert.deepEqual(stored.idb, []);
  const cookies = await context.cookies();
  const refresh = cookies.find((c) => c.name === 'aev_refresh');
  assert.ok(refresh, 'the refresh cookie is set');
  assert.equal(refresh.httpOnly, true);
  assert.equal(refresh.sameSite, 'Strict');
  assert.equal(refresh.path, '/auth');

  const streamTokens = [];
  for (const u of page.urls) {
    assert.ok(!/eyJ[A-Za-z0-9_-]{10,}/.test(u), `a JWT in a URL: ${u}`);
    assert.ok(!u.includes('aes_'), `an API key in a URL: ${u}`);
    const t = new URL(u).searchParams.get('stream_token');
    if (t) {
      assert.match(new URL(u).pathname, /\/subscribe$/, `a stream token outside a subscribe URL: ${u}`);
      streamTokens.push(t);
    }
  }
  assert.ok(streamTokens.length >= 1, 'the live tail subscribed with a stream token');
  const log = daemon.log();
  for (const t of streamTokens) assert.ok(!log.includes(t), 'a stream token is in the access log');
  await cleanPage(page, 'sign-in and navigation');

  // Signing out ends the session: a reload shows the sign-in form.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('E-mail or username').waitFor({ timeout: WAIT });
  await page.reload();
  await page.getByLabel('E-mail or username').waitFor({ timeout: WAIT });
  await context.close();
});

test('the live tail shows each published event soon after its 201 (p95 reported)', { timeout: 180_000 }, async () => {
  const { channelId } = await newChannel(alice, `latency-${uid()}`, 'tail');
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, alice, `/console/live?org=${alice.orgId}&channel=${channelId}`);
  await page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: WAIT });
  await page.evaluate(() => {
    window.__seen = {};
    const tbody = document.querySelector('table.live tbody');
    new MutationObserver((list) => {
      const t = performance.timeOrigin + performance.now();
      for (const m of list) for (const n of m.addedNodes) {
        if (n.dataset && n.dataset.eventId && !(n.dataset.eventId in window.__seen)) window.__seen[n.dataset.eventId] = t;
      }
    }).observe(tbody, { childList: true });
  });
  const acks = [];
  for (let i = 0; i < 50; i += 1) {
    const e = await publishWithKey(aliceKey, { identifier: `lat-${i}`, payload: { i }, channel_id: channelId, eventType: 'agent.message' });
    acks.push({ id: e.id, at: Date.now() });
    await sleep(20);
  }
  await page.waitForFunction((n) => Object.keys(window.__seen).length >= n, acks.length, { timeout: WAIT }).catch(() => {});
  const seen = await page.evaluate(() => window.__seen);
  const missing = acks.filter((a) => !(a.id in seen)).map((a) => a.id);
  assert.deepEqual(missing, [], 'events missing from the live tail');
  const delays = acks.map((a) => Math.max(0, seen[a.id] - a.at)).sort((x, y) => x - y);
  const p = (q) => delays[Math.min(delays.length - 1, Math.ceil(q * delays.length) - 1)];
  report.liveTail = { publishes: acks.length, p50_ms: Math.round(p(0.5)), p95_ms: Math.round(p(0.95)), max_ms: Math.round(delays[delays.length - 1]) };
  console.log(`# live tail: 201 → row on screen over ${acks.length} publishes: p50 ${report.liveTail.p50_ms} ms, p95 ${report.liveTail.p95_ms} ms, max ${report.liveTail.max_ms} ms (target p95 < 250 ms)`);
  await cleanPage(page, 'live tail');
  await context.close();
});

test('the tail resumes through repeated cuts: 100 events, each once, in order, 0 missed', { timeout: 240_000 }, async () => {
  const { channelId } = await newChannel(alice, `resume-${uid()}`, 'cuts');
  // The browser reaches the daemon through a relay that drops every connection on cut().
  const relay = await cuttableRelay(daemon.port);
  const origin = `http://127.0.0.1:${relay.port}`;
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await page.goto(`${origin}/console/live?org=${alice.orgId}&channel=${channelId}`);
  await page.getByLabel('E-mail or username').fill(alice.username);
  await page.getByLabel('Password', { exact: true }).fill(alice.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: WAIT });

  const ids = [];
  let cutting = true;
  let cuts = 0;
  const cutter = (async () => {
    while (cutting) {
      await sleep(200 + Math.random() * 300);
      if (!cutting) break;
      if (relay.cut() > 0) cuts += 1;
    }
  })();
  for (let i = 0; i < 100; i += 1) {
    ids.push((await publishWithKey(aliceKey, { identifier: `seq-${i}`, payload: { seq: i }, channel_id: channelId })).id);
    await sleep(30);
  }
  cutting = false;
  await cutter;
  await page.waitForFunction((n) => document.querySelectorAll('table.live tbody tr').length >= n, ids.length, { timeout: 60_000 })
    .catch(() => {});
  await page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: WAIT });
  await sleep(500); // anything shown twice would show up now
  const shown = await page.$$eval('table.live tbody tr', (rows) => rows.map((r) => Number(r.dataset.eventId)));
  assert.deepEqual(shown, [...ids].reverse(), 'every event exactly once, newest first');
  const badge = page.locator('[data-testid=connection]');
  assert.equal(await badge.getAttribute('data-missed'), '0');
  assert.match(await badge.innerText(), /0 missed/);
  const resumes = Number(await badge.getAttribute('data-resumes'));
  report.resume = { events: ids.length, cuts, resumes };
  console.log(`# resume: ${ids.length} events through ${cuts} cuts, ${resumes} resumes, 0 missed`);
  assert.ok(cuts >= 5 && resumes >= 5, `the stream was cut and resumed (${resumes} resumes over ${cuts} cuts)`);
  await context.close();
  await relay.close();
});

test('the waterfall orders spans, navigates by keyboard and grows live in place', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, alice, `/console/traces/${seededTrace}?org=${alice.orgId}`);
  const grid = page.getByRole('treegrid');
  await grid.waitFor({ timeout: WAIT });
  await page.locator('[data-testid=trace-live]').waitFor({ timeout: WAIT });
  const rowsOf = () => page.$$eval('.wf-row[data-key]', (rows) => rows.map((r) => {
    const bar = r.querySelector('.wf-bar').getBoundingClientRect();
    const box = r.getBoundingClientRect();
    return { key: r.dataset.key, level: Number(r.getAttribute('aria-level')), start: Number(r.querySelector('.wf-bar').dataset.start),
      x: Math.round(bar.x * 10) / 10, w: Math.round(bar.width * 10) / 10, y: Math.round(box.y) };
  }));
  const before = await rowsOf();
  assert.deepEqual(before.map((r) => [r.key, r.level]),
    [['s:root', 1], ['s:plan', 2], ['s:tool1', 2], ['s:db', 3], ['s:tool2', 2], ['s:answer', 2]]);
  for (let i = 1; i < before.length; i += 1) {
    assert.ok(before[i].start >= before[i - 1].start, 'rows in start order');
    assert.ok(before[i].x >= before[i - 1].x - 0.5, 'bars move right with start time');
  }
  assert.equal(await page.locator('.wf-row.has-error').count(), 1, 'one error mark');

  // Keyboard: j/k move, ← goes to the parent, Esc closes the panel.
  await page.locator('.wf-row[data-key="s:root"]').click();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  assert.equal(await page.locator('.wf-row[aria-selected=true]').getAttribute('data-key'), 's:db');
  assert.match(page.url(), /span=db/);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('.wf-row[aria-selected=true]').getAttribute('data-key'), 's:tool1');
  await page.keyboard.press('k');
  assert.equal(await page.locator('.wf-row[aria-selected=true]').getAttribute('data-key'), 's:plan');
  await page.locator('aside.panel').waitFor();
  await page.keyboard.press('Escape');
  await page.locator('aside.panel').waitFor({ state: 'detached' });

  // A new span while the page is open: it appears; nothing already shown moves.
  const frozen = await rowsOf();
  const rootStart = frozen[0].start;
  await publishWithKey(aliceKey, {
    identifier: 'verify', eventType: 'agent.tool_call.start', channel_id: aliceMain.channelId, traceId: seededTrace,
    spanId: 'verify', parentSpanId: 'root', agentId: 'planner', timestamp: new Date(rootStart + 3000).toISOString(),
    payload: { step: 'verify' }, metadata: { duration_ms: 500 },
  });
  await page.locator('.wf-row[data-key="s:verify"]').waitFor({ timeout: WAIT });
  const afterRows = await rowsOf();
  assert.deepEqual(afterRows.filter((r) => r.key !== 's:verify'), frozen, 'existing rows kept their place, bar and order');
  assert.equal(afterRows[afterRows.length - 1].key, 's:verify');
  await cleanPage(page, 'trace detail');
  await context.close();
});

test("another organization's data never appears", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, alice);
  const pages = [
    `/console/live?org=${alice.orgId}`, `/console/traces?org=${alice.orgId}&range=30d`, `/console/analytics?org=${alice.orgId}&dim=agent`,
    `/console/settings?org=${alice.orgId}`,
    // Deep links naming Bob's organization or trace: refused, never shown.
    `/console/live?org=${bob.orgId}`, `/console/traces/${bobTrace}?org=${alice.orgId}`, `/console/traces/${bobTrace}?org=${bob.orgId}`,
  ];
  for (const p of pages) {
    await page.goto(`${daemon.base}${p}`);
    await page.locator('nav.side').waitFor({ timeout: WAIT });
    await sleep(600); // streams stay open: wait for the page's data rather than an idle network
    const text = await page.evaluate(() => document.body.innerText + [...document.querySelectorAll('option')].map((o) => o.textContent).join(' '));
    for (const secret of [bobSecret, bobTrace, 'bob-private-app', 'bob-private-channel', 'bob-agent-secret', 'bob-model-secret']) {
      assert.ok(!text.includes(secret), `${p} shows ${secret}`);
    }
  }
  assert.match(await page.locator('main').innerText(), /No such trace/);
  await context.close();
});

test('the live tail names the exports the daemon refused, for their own organization only', { timeout: 120_000 }, async () => {
  // An OTLP exporter only logs "400 Bad Request"; the console says why.
  const carol = await newUser('carol');
  const carolCh = await newChannel(carol, 'carol-app', 'carol-channel');
  const carolKey = await newKey(carol);
  const span = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'chat' }] }] }] });
  for (let i = 0; i < 3; i += 1) {
    const r = await fetch(`${daemon.base}/v1/traces`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${carolKey}` }, body: span,
    });
    assert.equal(r.status, 400, await r.text());
  }
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, carol, `/console/live?org=${carol.orgId}&channel=${carolCh.channelId}`);
  const notice = page.locator('[data-testid=ingest-problems]');
  await notice.waitFor({ timeout: WAIT });
  assert.match(await notice.innerText(), /3 exports refused in the last hour: no channel/);
  await cleanPage(page, 'live tail with refused exports');
  await context.close();
  // axe-core is injected, so this context bypasses the CSP (test-only).
  const axeContext = await browser.newContext({ viewport: VIEWPORT, bypassCSP: true });
  const axePage = await consolePage(axeContext);
  await signIn(axePage, carol, `/console/live?org=${carol.orgId}&channel=${carolCh.channelId}`);
  await axePage.locator('[data-testid=ingest-problems]').waitFor({ timeout: WAIT });
  await axeCheck(axePage, 'live tail with refused exports');
  await axeContext.close();
  // Bob's organization has none of carol's.
  const other = await browser.newContext({ viewport: VIEWPORT });
  const bobPage = await consolePage(other);
  await signIn(bobPage, bob, `/console/live?org=${bob.orgId}`);
  await bobPage.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: WAIT });
  const problems = await daemon.expect(200, 'GET', '/ingest/problems', undefined, bob.token);
  assert.equal(problems.data.length, 0);
  assert.equal(await bobPage.locator('[data-testid=ingest-problems]').count(), 0);
  await other.close();
});

test('from nothing: sign up, create app, channel and key, publish, watch it live, open its trace', { timeout: 180_000 }, async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  const id = uid();
  await page.goto(`${daemon.base}/console/`);
  await page.getByRole('tab', { name: 'Create account' }).click();
  await page.getByLabel('E-mail').fill(`new-${id}@example.test`);
  await page.getByLabel('Username').fill(`new_${id}`);
  await page.getByLabel('Password').fill(`pw-${id}-Secret!`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.locator('nav.side').waitFor({ timeout: WAIT });
  await page.getByText('No channel yet').waitFor({ timeout: WAIT });

  const nav = page.locator('nav.side');
  await nav.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('New app name').fill('my-agent-app');
  await page.getByRole('button', { name: 'Create app' }).click();
  await page.getByLabel('New channel in my-agent-app').fill('prod');
  await page.getByRole('button', { name: 'Add channel' }).click();
  await page.getByRole('link', { name: 'Live tail' }).first().waitFor({ timeout: WAIT });
  await page.getByLabel('Key name').fill('agent-prod');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.locator('[data-testid=new-key] .secret-value').innerText()).trim();
  assert.match(key, /^aes_[A-Za-z0-9]{43}$/);
  await shot(page, 'settings-new-key-light');
  await page.getByRole('button', { name: 'Done' }).click();
  assert.ok(!(await page.evaluate((k) => document.body.innerText.includes(k), key)), 'the full key is gone once dismissed');

  await nav.getByRole('link', { name: 'Live tail' }).click();
  await page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: WAIT });
  const channelId = Number(new URL(page.url()).searchParams.get('channel'));
  const traceId = `first-${id}`;
  const e = await publishWithKey(key, {
    identifier: 'hello', payload: { text: 'hi from curl' }, channel_id: channelId, eventType: 'agent.message',
    traceId, agentId: 'my-agent', metadata: { model: 'gpt-4o', usage: { input_tokens: 10, output_tokens: 5 } },
  });
  const row = page.locator(`tr[data-event-id="${e.id}"]`);
  await row.waitFor({ timeout: WAIT });
  await row.click();
  await page.getByRole('link', { name: /Open trace/ }).click();
  await page.getByRole('treegrid').waitFor({ timeout: WAIT });
  assert.equal(await page.locator('.wf-row[data-key]').count(), 1);
  await nav.getByRole('link', { name: 'Analytics' }).click();
  await page.locator('[data-testid=breakdown-table]').getByText('gpt-4o').waitFor({ timeout: WAIT });
  await cleanPage(page, 'first steps');
  await context.close();
});

test('every screen: no CSP violation or console error, axe-core clean, screenshots light and dark', { timeout: 300_000 }, async () => {
  const screens = [
    { name: 'live', path: `/console/live?org=${alice.orgId}&channel=${aliceMain.channelId}`, ready: '[data-testid=connection][data-state=live]', select: 'table.live tbody tr:nth-child(3)' },
    { name: 'traces', path: `/console/traces?org=${alice.orgId}`, ready: 'tr[data-trace-id]' },
    { name: 'trace', path: `/console/traces/${seededTrace}?org=${alice.orgId}&span=answer`, ready: '[data-testid=trace-live]' },
    { name: 'analytics', path: `/console/analytics?org=${alice.orgId}`, ready: '[data-testid=breakdown-table]' },
    { name: 'settings', path: `/console/settings?org=${alice.orgId}`, ready: 'text=API keys' },
  ];
  const axeFindings = {};
  for (const scheme of ['light', 'dark']) {
    // The strict CSP applies: violations and errors are checked here, screenshots taken.
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: scheme });
    const page = await consolePage(context);
    await page.goto(`${daemon.base}/console/`);
    await page.getByLabel('E-mail or username').waitFor({ timeout: WAIT });
    await cleanPage(page, `sign-in (${scheme})`);
    await shot(page, `login-${scheme}`);
    await signIn(page, alice);
    for (const s of screens) {
      await page.goto(`${daemon.base}${s.path}`);
      await page.locator(s.ready).first().waitFor({ timeout: WAIT });
      if (s.select) await page.locator(s.select).click();
      await sleep(400);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
      await cleanPage(page, `${s.name} (${scheme})`);
      await shot(page, `${s.name}-${scheme}`);
    }
    await context.close();

    // axe-core is injected, so this context bypasses the CSP (test-only; never shipped).
    const axeContext = await browser.newContext({ viewport: VIEWPORT, colorScheme: scheme, bypassCSP: true });
    const axePage = await consolePage(axeContext);
    await axePage.goto(`${daemon.base}/console/`);
    await axePage.getByLabel('E-mail or username').waitFor({ timeout: WAIT });
    axeFindings[`login-${scheme}`] = await axeCheck(axePage, `sign-in (${scheme})`);
    await signIn(axePage, alice);
    for (const s of screens) {
      await axePage.goto(`${daemon.base}${s.path}`);
      await axePage.locator(s.ready).first().waitFor({ timeout: WAIT });
      if (s.select) await axePage.locator(s.select).click();
      await sleep(300);
      axeFindings[`${s.name}-${scheme}`] = await axeCheck(axePage, `${s.name} (${scheme})`);
    }
    await axeContext.close();
  }
  report.axe = Object.fromEntries(Object.entries(axeFindings).map(([k, v]) => [k, v.map((f) => `${f.impact} ${f.id}`)]));
  console.log(`# axe-core (moderate/minor only): ${JSON.stringify(report.axe)}`);
});
