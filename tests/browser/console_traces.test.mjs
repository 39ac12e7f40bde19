// The console's traces at scale, in Debian's headless Chromium against the real daemon:
//
//   - a 600-span waterfall is virtualised: the treegrid counts every row (aria-rowcount,
//     aria-rowindex) while only those near the viewport are in the DOM, each where it
//     would be with all rows drawn, in start order with children after their parents,
//     wherever the page is scrolled
//   - keyboard across the rendered window: j/k, End, Home, ← to a parent off screen, → /
//     ← collapse and expand, Esc; a deep link to a span deep in the list shows it
//   - a span published while the page is open appears at its place; no drawn row moves
//   - download JSON holds every event
//   - the traces list shows tokens and cost, sorts by them (on the daemon), and filters by
//     environment and by tag (key=value; anything else is explained, not sent)
//   - no CSP violation or console error; axe-core finds nothing serious or critical;
//     screenshots light and dark (AEV_SCREENSHOT_DIR)
//
//   AEV_DAEMON_BIN=build/daemon/agent-eventsd node --test tests/browser/console_traces.test.mjs
// (AEV_CONSOLE_DIR=daemon/console serves the console's files from the source tree.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  axeSource, cleanPage, consoleDaemon, consolePage, daemonBin, launchChromium, newUser, shot, signIn as signInTo, sleep,
  stopDaemon, VIEWPORT, WAIT,
} from './support.mjs';

const SPANS = 600;

let daemon;
let browser;
let user;
let channelId;
let key;
const traceId = `big-${process.pid}-${Date.now().toString(36)}`;
const prodTrace = `prod-${process.pid}-${Date.now().toString(36)}`;
const stageTrace = `stage-${process.pid}-${Date.now().toString(36)}`;
const t0 = Date.now() - 3_600_000;

// The seeded tree: s0 the root; s1..s9 its children; s10..s99 under s1..s9; the rest under
// s10..s99. Span s starts at t0 + s * 100 ms.
const parentOf = (s) => (s === 0 ? null : s < 10 ? 0 : s < 100 ? 1 + (s % 9) : 10 + (s % 90));

// The waterfall's promise, computed here independently: depth first, siblings by start.
function expectedOrder(count) {
  const kids = new Map();
  for (let s = 1; s < count; s += 1) {
    const p = parentOf(s);
    if (!kids.has(p)) kids.set(p, []);
    kids.get(p).push(s);
  }
  const out = [];
  const walk = (s, depth) => {
    out.push({ key: `s:s${s}`, depth });
    for (const k of kids.get(s) || []) walk(k, depth + 1);
  };
  walk(0, 1);
  return out;
}

function spanEvent(s, extra = {}) {
  const p = parentOf(s);
  return {
    identifier: `step-${s}`, eventType: s % 3 ? 'agent.message' : 'agent.tool_call.start', channel_id: channelId, traceId,
    spanId: `s${s}`, parentSpanId: p === null ? undefined : `s${p}`, agentId: `agent-${s % 5}`,
    timestamp: new Date(t0 + s * 100).toISOString(), payload: { step: s },
    metadata: { duration_ms: 80 + (s % 30), model: 'gpt-4o', usage: { input_tokens: 100 + s, output_tokens: 20 } },
    ...extra,
  };
}

const signIn = (page, where) => signInTo(page, daemon, user, where, WAIT);

// The rows in the DOM: key, level, index among all rows, and top relative to the first row's place.
const rendered = (page) => page.evaluate(() => {
  const group = document.querySelector('.wf-rows');
  const top = group.getBoundingClientRect().top;
  return [...group.querySelectorAll(':scope > .wf-row')].map((r) => ({
    key: r.dataset.key, level: Number(r.getAttribute('aria-level')), index: Number(r.getAttribute('aria-rowindex')),
    y: Math.round(r.getBoundingClientRect().top - top), h: Math.round(r.getBoundingClientRect().height),
  }));
});

// Every drawn row is the one the full list has at its aria-rowindex, at that row's place.
function assertWindow(rows, order, what) {
  assert.ok(rows.length > 0, `${what}: rows drawn`);
  const h = rows[0].h;
  for (const r of rows) {
    const want = order[r.index - 2];
    assert.ok(want, `${what}: aria-rowindex ${r.index} out of range`);
    assert.deepEqual([r.key, r.level], [want.key, want.depth], `${what}: row ${r.index}`);
    assert.equal(r.y, (r.index - 2) * h, `${what}: ${r.key} drawn at its place`);
  }
}

const scrollTo = (page, where) => page.locator('.page-main').evaluate((el, w) => {
  el.scrollTop = w === 'end' ? el.scrollHeight : w === 'middle' ? el.scrollHeight / 2 : 0;
}, where);
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const selectedKey = (page) => page.locator('.wf-row[aria-selected=true]').getAttribute('data-key');
const focusedKey = (page) => page.evaluate(() => document.activeElement?.dataset?.key || null);

before(async () => {
  assert.ok(daemonBin, 'AEV_DAEMON_BIN must name the built agent-eventsd');
  daemon = consoleDaemon();
  await daemon.start();
  browser = await launchChromium();
  user = await newUser(daemon, 'traces');
  const app = await daemon.expect(201, 'POST', '/apps', { name: 'scale' }, user.token);
  channelId = (await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'prod' }, user.token)).id;
  key = (await daemon.expect(201, 'POST', '/api-keys', { name: 'k', scopes: ['publish', 'read'] }, user.token)).key;
  const events = [];
  for (let s = 0; s < SPANS; s += 1) events.push(spanEvent(s));
  for (let i = 0; i < events.length; i += 500) {
    const r = await daemon.expect(200, 'POST', '/events/batch', { events: events.slice(i, i + 500) }, user.token);
    assert.equal(r.failed, 0);
  }
  // Two small traces with an environment, a tag, tokens and cost of their own.
  const small = (trace, at, metadata) => ({
    identifier: 'call', eventType: 'agent.message', channel_id: channelId, traceId: trace, agentId: 'support',
    timestamp: new Date(at).toISOString(), payload: {}, metadata,
  });
  await daemon.expect(201, 'POST', '/event', small(prodTrace, Date.now() - 600_000,
    { environment: 'production', usage: { input_tokens: 5000, output_tokens: 100 }, cost_usd: 2.5, tags: { team: 'search' } }), user.token);
  await daemon.expect(201, 'POST', '/event', small(stageTrace, Date.now() - 300_000,
    { environment: 'staging', usage: { input_tokens: 10, output_tokens: 10 }, cost_usd: 0.01, tags: { team: 'ads' } }), user.token);
});

after(async () => {
  if (browser) await browser.close().catch(() => {});
  if (daemon) await stopDaemon(daemon);
});

test('a 600-span waterfall draws only the rows near the viewport, each at its place, in order', { timeout: 120_000 }, async () => {
  const order = expectedOrder(SPANS);
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, `/console/traces/${traceId}?org=${user.orgId}`);
  const grid = page.locator(`[role=treegrid][aria-rowcount="${SPANS + 1}"]`);
  await grid.waitFor({ timeout: WAIT });
  const top = await rendered(page);
  assert.ok(top.length < 120, `only the rows near the viewport are in the DOM (${top.length})`);
  assert.equal(top[0].index, 2);
  assertWindow(top, order, 'top');
  for (const where of ['middle', 'end', 'top']) {
    await scrollTo(page, where);
    await settle(page);
    const rows = await rendered(page);
    assertWindow(rows, order, where);
    if (where === 'end') assert.equal(rows[rows.length - 1].index, SPANS + 1, 'the last row is drawn at the end');
    if (where === 'middle') assert.ok(rows[0].index > 100 && rows.length < 120, 'a middle window');
  }
  // The scroll height is that of all rows: the waterfall does not jump while scrolling.
  const heights = await page.locator('.wf-rows').evaluate((el) => ({ h: el.getBoundingClientRect().height, row: el.querySelector('.wf-row').getBoundingClientRect().height }));
  assert.equal(Math.round(heights.h), Math.round(heights.row * SPANS));
  await cleanPage(page, 'large waterfall');
  await context.close();
});

test('keyboard and deep links reach rows outside the drawn window', { timeout: 120_000 }, async () => {
  const order = expectedOrder(SPANS);
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, `/console/traces/${traceId}?org=${user.orgId}`);
  await page.locator('[role=treegrid]').waitFor({ timeout: WAIT });
  await page.locator('.wf-row[data-key="s:s0"]').click();
  // j past the first window: the selection, the focus and the drawn rows follow.
  for (let i = 0; i < 70; i += 1) await page.keyboard.press('j');
  assert.equal(await selectedKey(page), order[70].key);
  assert.equal(await focusedKey(page), order[70].key);
  await settle(page);
  assertWindow(await rendered(page), order, 'after 70 × j');
  const box = await page.locator('.wf-row[aria-selected=true]').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= VIEWPORT.height, 'the selected row is in view');
  await page.keyboard.press('k');
  assert.equal(await selectedKey(page), order[69].key);

  await page.keyboard.press('End');
  await page.locator(`.wf-row[aria-rowindex="${SPANS + 1}"][aria-selected=true]`).waitFor({ timeout: WAIT });
  assert.equal(await focusedKey(page), order[SPANS - 1].key);
  await settle(page);
  assertWindow(await rendered(page), order, 'after End');
  // ← goes to the parent, far above the drawn window.
  const last = order[SPANS - 1];
  const parentKey = `s:s${parentOf(Number(last.key.slice(3)))}`;
  await page.keyboard.press('ArrowLeft');
  assert.equal(await selectedKey(page), parentKey);
  assert.equal(await focusedKey(page), parentKey);
  await page.keyboard.press('Home');
  assert.equal(await selectedKey(page), 's:s0');
  assert.equal(await focusedKey(page), 's:s0');
  // ← on the root collapses everything, → expands it again.
  await page.keyboard.press('ArrowLeft');
  await page.locator('[role=treegrid][aria-rowcount="2"]').waitFor({ timeout: WAIT });
  assert.equal(await page.locator('.wf-row[data-key]').count(), 1);
  await page.keyboard.press('ArrowRight');
  await page.locator(`[role=treegrid][aria-rowcount="${SPANS + 1}"]`).waitFor({ timeout: WAIT });
  await page.keyboard.press('Escape');
  await page.locator('aside.panel').waitFor({ state: 'detached' });

  // A deep link to a span far down the list shows it, selected, with its events.
  const deep = order[450];
  await page.goto(`${daemon.base}/console/traces/${traceId}?org=${user.orgId}&span=${deep.key.slice(2)}`);
  const row = page.locator(`.wf-row[data-key="${deep.key}"][aria-selected=true]`);
  await row.waitFor({ timeout: WAIT });
  await page.locator('aside.panel').getByText(`step-${deep.key.slice(3)}`).first().waitFor({ timeout: WAIT });
  await settle(page);
  const deepBox = await row.boundingBox();
  assert.ok(deepBox.y >= 0 && deepBox.y + deepBox.height <= VIEWPORT.height, 'the linked row is in view');
  assertWindow(await rendered(page), order, 'deep link');
  await cleanPage(page, 'waterfall keyboard');
  await context.close();
});

test('a span published while the page is open appears at its place; drawn rows stay; download holds all events', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
  const page = await consolePage(context);
  await signIn(page, `/console/traces/${traceId}?org=${user.orgId}`);
  await page.locator('[data-testid=trace-live]').waitFor({ timeout: WAIT });
  await scrollTo(page, 'middle');
  await settle(page);
  const before = await rendered(page);
  // The latest start under the root: it goes last, after every row there is.
  const r = await fetch(`${daemon.base}/event`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
    body: JSON.stringify(spanEvent(SPANS, { spanId: 'late', parentSpanId: 's0', identifier: 'late-span' })),
  });
  assert.equal(r.status, 201);
  await page.locator(`[role=treegrid][aria-rowcount="${SPANS + 2}"]`).waitFor({ timeout: WAIT });
  await settle(page);
  const afterRows = await rendered(page);
  const still = afterRows.filter((x) => before.some((b) => b.key === x.key));
  assert.ok(still.length >= before.length - 2, 'the drawn rows are still drawn');
  for (const x of still) assert.deepEqual(x, before.find((b) => b.key === x.key), `${x.key} did not move`);
  await page.locator(`.wf-row[data-key="${afterRows[0].key}"]`).click();
  await page.keyboard.press('End');
  await page.locator('.wf-row[data-key="s:late"][aria-selected=true]').waitFor({ timeout: WAIT });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
  const saved = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  assert.equal(saved.traceId, traceId);
  assert.equal(saved.events.length, SPANS + 1);
  await cleanPage(page, 'live waterfall');
  await context.close();
});

test('the large waterfall: axe-core clean, screenshots light and dark', { timeout: 120_000 }, async () => {
  for (const scheme of ['light', 'dark']) {
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: scheme, bypassCSP: true });
    const page = await consolePage(context);
    await signIn(page, `/console/traces/${traceId}?org=${user.orgId}&span=s120`);
    await page.locator('.wf-row[aria-selected=true]').waitFor({ timeout: WAIT });
    await sleep(300);
    await shot(page, `trace-large-${scheme}`);
    await page.addScriptTag({ content: axeSource() });
    const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
      .violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })));
    assert.deepEqual(found.filter((v) => v.impact === 'serious' || v.impact === 'critical'), [], `axe (${scheme})`);
    await context.close();
  }
});

test('the traces list shows, sorts by and filters on tokens, cost, environment and tag', { timeout: 120_000 }, async () => {
  const waitFor = (page, ids) => page.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('tr[data-trace-id]')]
    .map((r) => r.dataset.traceId)) === JSON.stringify(want), ids, { timeout: WAIT });
  for (const scheme of ['light', 'dark']) {
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: scheme });
    const page = await consolePage(context);
    await signIn(page, `/console/traces?org=${user.orgId}`);
    await waitFor(page, [stageTrace, prodTrace, traceId]);
    const prodRow = page.locator(`tr[data-trace-id="${prodTrace}"]`);
    assert.match(await prodRow.innerText(), /5,100/);
    assert.match(await prodRow.innerText(), /\$2\.50/);

    await page.getByRole('button', { name: 'Tokens' }).click();
    await waitFor(page, [traceId, prodTrace, stageTrace]);
    assert.match(page.url(), /sort=tokens/);
    assert.match(await page.locator('th[aria-sort=descending]').textContent(), /^Tokens/);
    await page.getByRole('button', { name: 'Tokens' }).click(); // again: ascending
    await waitFor(page, [stageTrace, prodTrace, traceId]);
    await page.getByRole('button', { name: 'Cost' }).click();
    await waitFor(page, [prodTrace, traceId, stageTrace]);
    await shot(page, `traces-usage-${scheme}`);

    await page.getByLabel('Environment').fill('staging');
    await page.getByLabel('Environment').press('Enter');
    await waitFor(page, [stageTrace]);
    assert.match(page.url(), /environment=staging/);
    await page.getByLabel('Environment').press('Escape');
    await waitFor(page, [prodTrace, traceId, stageTrace]);
    await page.getByLabel('Tag').fill('team=search');
    await page.getByLabel('Tag').press('Enter');
    await waitFor(page, [prodTrace]);
    // Not key=value: said so, and the list is not filtered by half a tag.
    await page.getByLabel('Tag').fill('team');
    await page.getByLabel('Tag').press('Enter');
    await page.getByText('The tag filter is written key=value').waitFor({ timeout: WAIT });
    await waitFor(page, [prodTrace, traceId, stageTrace]);
    await shot(page, `traces-filters-${scheme}`);
    await cleanPage(page, `traces list (${scheme})`);
    await context.close();

    const axeContext = await browser.newContext({ viewport: VIEWPORT, colorScheme: scheme, bypassCSP: true });
    const axePage = await consolePage(axeContext);
    await signIn(axePage, `/console/traces?org=${user.orgId}&sort=cost&tag=team`);
    await axePage.locator('tr[data-trace-id]').first().waitFor({ timeout: WAIT });
    await axePage.addScriptTag({ content: axeSource() });
    const found = await axePage.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
      .violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })));
    assert.deepEqual(found.filter((v) => v.impact === 'serious' || v.impact === 'critical'), [], `axe traces (${scheme})`);
    await axeContext.close();
  }
});
