// A real browser reads agent-eventsd streams (docs/api.md#streaming-and-resume: stream tokens for
// EventSource, CORS from http.cors_origins). Debian's headless Chromium, driven by
// playwright-core, loads a page from a small local server on one loopback port and opens
// `new EventSource(<daemon on another port>/channel/ID/subscribe?stream_token=...)`;
// the test publishes events and checks the page got them, in order, once each, also
// across a daemon restart (EventSource reconnects on its own with Last-Event-ID).
//
//   AEV_DAEMON_BIN=build/daemon/agent-eventsd node --test tests/browser/eventsource.test.mjs
//
// Environment: AEV_DAEMON_BIN (required), AEV_CHROMIUM (default /usr/bin/chromium),
// AEV_KEEP_TEMP=1 keeps the daemon's data dir and log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumBin, Daemon, daemonBin, freePort, stopDaemon } from './support.mjs';

const WAIT = 20_000; // bounded waits for the browser (reconnects wait `retry: 3000`)

// ---------------------------------------------------------------- the page and its server

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>agent-events EventSource</title></head>
<body>
<script>
  window.received = [];   // {id, event, data} per message, in arrival order
  window.opens = 0;       // how many times the stream (re)opened
  window.errors = 0;      // error events (a reconnect starts with one)
  window.subscribe = (url) => {
    const es = new EventSource(url);
    window.es = es;
    es.onopen = () => { window.opens += 1; };
    es.onerror = () => { window.errors += 1; };
    es.onmessage = (ev) => window.received.push({ id: ev.lastEventId, event: 'message', data: JSON.parse(ev.data) });
    es.addEventListener('reset', (ev) => window.received.push({ id: ev.lastEventId, event: 'reset', data: JSON.parse(ev.data) }));
  };
</script>
</body></html>`;

function startPageServer(port) {
  const server = http.createServer((req, res) => {
    if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(PAGE);
    } else {
      res.writeHead(req.url === '/favicon.ico' ? 204 : 404);
      res.end();
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

// ---------------------------------------------------------------- set-up

let pageServer;
let pageOrigin;
let daemon;
let context; // a persistent context: its own fresh --user-data-dir
let userDataDir;
let token; // the user's access token
let orgId;

async function newChannel(name) {
  const app = await daemon.expect(201, 'POST', '/apps', { name: `app ${name}` }, token);
  const ch = await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name }, token);
  return ch.id;
}

async function publish(channelId, identifier, payload) {
  const e = await daemon.expect(201, 'POST', '/event', { identifier, payload, channel_id: channelId }, token);
  return e;
}

async function openPage(channelId) {
  const { token: streamToken } = await daemon.expect(201, 'POST', '/stream-tokens', { channelId }, token);
  const page = await context.newPage();
  page.on('console', (m) => console.log(`# page console: ${m.text()}`));
  await page.goto(`${pageOrigin}/`);
  const url = `${daemon.base}/channel/${channelId}/subscribe?stream_token=${encodeURIComponent(streamToken)}`;
  await page.evaluate((u) => window.subscribe(u), url);
  await page.waitForFunction(() => window.opens >= 1, null, { timeout: WAIT });
  return page;
}

async function receivedBy(page, count) {
  await page.waitForFunction((n) => window.received.length >= n, count, { timeout: WAIT }).catch(async (e) => {
    const got = await page.evaluate(() => window.received);
    throw new Error(`the page got ${got.length} of ${count} messages: ${JSON.stringify(got)} (${e.message})`);
  });
  return page.evaluate(() => window.received);
}

before(async () => {
  assert.ok(daemonBin, 'AEV_DAEMON_BIN must name the built agent-eventsd');
  assert.ok(fs.existsSync(chromiumBin), `${chromiumBin} is missing (apt-get install chromium)`);
  const pagePort = await freePort();
  pageServer = await startPageServer(pagePort);
  pageOrigin = `http://127.0.0.1:${pagePort}`;
  daemon = new Daemon({ 'http.cors_origins': pageOrigin });
  await daemon.start();

  const id = `${process.pid}x${Date.now()}`;
  const reg = await daemon.expect(201, 'POST', '/auth/register',
    { email: `browser-${id}@example.test`, username: `browser_${id}`, password: `pw-${id}-Secret!` });
  orgId = reg.organizationId;
  const login = await daemon.expect(200, 'POST', '/auth/login', { login: `browser_${id}`, password: `pw-${id}-Secret!` });
  token = login.access_token;

  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aev-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumBin,
    headless: true,
    args: CHROMIUM_ARGS,
  });
});

after(async () => {
  if (context) await context.close().catch(() => {});
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
  if (pageServer) await new Promise((r) => pageServer.close(r));
  if (daemon) await stopDaemon(daemon);
});

// ---------------------------------------------------------------- tests

test('an EventSource on another origin receives published events in order', { timeout: 90_000 }, async () => {
  const channelId = await newChannel('browser');
  const page = await openPage(channelId);
  const payloads = [
    { n: 1, text: 'plain' },
    { n: 2, text: 'two\nlines and "quotes"' },
    { n: 3, text: 'żółć ☃ 😀', nested: { list: [1, 'a', true] } },
    { n: 4, text: '\n\ndata: forged\n\n' },
    { n: 5, text: 'last' },
  ];
  const published = [];
  for (const [i, payload] of payloads.entries()) published.push(await publish(channelId, `step-${i}`, payload));

  const got = await receivedBy(page, published.length);
  assert.equal(got.length, published.length, JSON.stringify(got));
  got.forEach((m, i) => {
    assert.equal(m.event, 'message');
    assert.equal(m.id, String(published[i].id), 'lastEventId is the event id');
    assert.equal(m.data.id, published[i].id);
    assert.equal(m.data.identifier, `step-${i}`);
    assert.equal(m.data.channel_id, channelId);
    assert.equal(m.data.orgId, String(orgId));
    assert.deepEqual(m.data.payload, payloads[i]);
  });
  assert.equal(await page.evaluate(() => window.es.readyState), 1, 'the EventSource is OPEN');
  await page.close();
});

test('the browser resumes with Last-Event-ID after a daemon restart and loses nothing', { timeout: 120_000 }, async () => {
  const channelId = await newChannel('restart');
  const page = await openPage(channelId);
  const ids = [];
  for (let i = 0; i < 3; i += 1) ids.push((await publish(channelId, `before-${i}`, { i })).id);
  await receivedBy(page, 3);

  // The daemon goes away: the EventSource notices, and keeps retrying (retry: 3000).
  const status = await daemon.stop();
  assert.deepEqual(status, { code: 0, signal: null }, 'agent-eventsd did not exit cleanly on SIGTERM');
  await page.waitForFunction(() => window.errors >= 1, null, { timeout: WAIT });
  await daemon.start();
  // Published after the restart, before or after the browser is back: either way once.
  for (let i = 0; i < 3; i += 1) ids.push((await publish(channelId, `after-${i}`, { i })).id);

  const got = await receivedBy(page, ids.length);
  await page.waitForFunction(() => window.opens >= 2, null, { timeout: WAIT });
  // A little longer, to see that nothing arrives twice.
  const late = (await publish(channelId, 'live', { live: true })).id;
  ids.push(late);
  const all = await receivedBy(page, ids.length);
  assert.ok(got.length <= all.length);
  assert.deepEqual(all.map((m) => m.event), ids.map(() => 'message'), JSON.stringify(all));
  assert.deepEqual(all.map((m) => m.data.id), ids, 'every event once, in order');
  assert.equal(await page.evaluate(() => window.es.readyState), 1, 'the EventSource is OPEN again');
  await page.close();
});

test('the stream answers the page origin with CORS and refuses a tampered token', { timeout: 60_000 }, async () => {
  const channelId = await newChannel('cors');
  const { token: streamToken } = await daemon.expect(201, 'POST', '/stream-tokens', { channelId }, token);
  const page = await context.newPage();
  await page.goto(`${pageOrigin}/`);
  // A tampered token: the EventSource fails for good (a non-200 answer is not retried).
  const tampered = streamToken.slice(0, -2) + (streamToken.endsWith('AA') ? 'BB' : 'AA');
  const url = `${daemon.base}/channel/${channelId}/subscribe?stream_token=${encodeURIComponent(tampered)}`;
  await page.evaluate((u) => window.subscribe(u), url);
  await page.waitForFunction(() => window.es.readyState === 2, null, { timeout: WAIT });
  assert.equal(await page.evaluate(() => window.opens), 0);
  // The page can also read an API answer cross-origin (Access-Control-Allow-Origin).
  // (Authorization and x-tenant-id make it a preflighted request: a bodiless OPTIONS
  // that must be answered at once.)
  const fromPage = await page.evaluate(async ([base, bearer, org]) => {
    const started = Date.now();
    try {
      const r = await fetch(`${base}/apps`, {
        headers: { Authorization: `Bearer ${bearer}`, 'x-tenant-id': String(org) },
        signal: AbortSignal.timeout(5000),
      });
      return { status: r.status, body: await r.json(), ms: Date.now() - started };
    } catch (e) {
      return { error: String(e), ms: Date.now() - started };
    }
  }, [daemon.base, token, orgId]);
  assert.equal(fromPage.error, undefined, `the cross-origin request from the page failed: ${JSON.stringify(fromPage)}`);
  assert.equal(fromPage.status, 200, JSON.stringify(fromPage));
  assert.ok(fromPage.body.some((a) => a.name === 'app cors'), JSON.stringify(fromPage));
  await page.close();
});
