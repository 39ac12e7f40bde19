// The console's management screens in a real browser (Debian's headless Chromium,
// playwright-core) against agent-eventsd: delivery, moderation, spend and alerts.
//
//   - delivery: create a webhook endpoint (at a loopback receiver this test runs) in the
//     console, see its secret once, publish, watch the attempt appear, redeliver it and see
//     the second attempt (same webhook-id at the receiver); filters by outcome and status
//     class; the endpoints of every channel listed from one request; an export destination
//     created, tested and disabled; a webhook endpoint's and an export destination's last
//     24 hours (health24h) shown as the API gives them
//   - moderation: a rule created in the console blocks in "try it" at once; a published
//     event's violation appears in the live feed and in the rule's count (every rule's
//     count from one polled report, never a request per rule)
//   - spend: a policy created with a three-rung ladder; after spending, the bar shows the
//     percentage, the rung in force and the next one; the check answers for a model
//   - alerts: a rule created in the console fires; its history shows the notification it
//     sent and when the receiver took it
//   - every screen: no CSP violation, no console error, no serious or critical axe-core
//     finding, keyboard reachable; screenshots light and dark (AEV_SCREENSHOT_DIR); another
//     organization's data never appears
//
//   AEV_DAEMON_BIN=build/daemon/agent-eventsd AEV_SCREENSHOT_DIR=/tmp/shots \
//     node --test tests/browser/console-manage.test.mjs
// (AEV_CONSOLE_DIR=daemon/console serves the console's files from the source tree.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  axeCheck, axeSource, cleanPage, consoleDaemon, consolePage, daemonBin, launchChromium, newUser, receiver,
  shot as shotOf, signIn, sleep, stopDaemon, uid, VIEWPORT, WAIT,
} from './support.mjs';
import { num, pct } from '../../daemon/console/js/format.js';

let daemon;
let browser;
let hooks; // the loopback receiver: /ok answers 200, /down 503
let alice; // organization with data on every screen
let aliceKey;
let aliceChannel;
let bob; // another organization
const BOB = `bob-secret-${uid()}`; // in the names of everything Bob creates

// These screens are longer than the window: the whole page.
const shot = (page, name) => shotOf(page, name, { fullPage: true });

// In-app navigation (as a link click does): no reload, no new sign-in round trip.
async function go(page, where) {
  await page.evaluate((url) => {
    window.history.pushState(null, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, where);
  await page.locator('main h1').first().waitFor({ timeout: WAIT });
}

async function publish(key, body) {
  const r = await fetch(`${daemon.base}/event`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': key }, body: JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : null };
}

async function setUpOrg(user, name) {
  const app = await daemon.expect(201, 'POST', '/apps', { name: `${name}-app` }, user.token);
  const ch = await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: `${name}-channel` }, user.token);
  const key = await daemon.expect(201, 'POST', '/api-keys', { name: `${name}-key`, scopes: ['publish', 'subscribe', 'read'] }, user.token);
  return { appId: app.id, channelId: ch.id, key: key.key, keyId: key.id };
}

async function newPage(scheme = 'light', bypassCSP = false) {
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: scheme, bypassCSP });
  const page = await consolePage(context);
  return { context, page };
}

before(async () => {
  assert.ok(daemonBin, 'AEV_DAEMON_BIN must name the built agent-eventsd');
  hooks = await receiver((req) => (req.url.startsWith('/down') ? { status: 503, body: 'receiver down for maintenance' } : { status: 200, body: '{"received":true}' }));
  daemon = consoleDaemon({
    // The receiver is on loopback: allowed here, refused by default.
    'outbound.allow_private_addresses': 'true',
    'outbound.timeout_ms': '2000',
    'delivery.retry_schedule': '1s,1s',
    'delivery.poll_interval_ms': '100',
    'alerts.evaluate_interval_seconds': '1',
  });
  await daemon.start();
  browser = await launchChromium();

  alice = await newUser(daemon, 'alice');
  const a = await setUpOrg(alice, 'support-bot');
  aliceKey = a.key;
  aliceChannel = a.channelId;

  // Bob's organization has one of everything, named with BOB: none of it may show for Alice.
  bob = await newUser(daemon, 'bob');
  const b = await setUpOrg(bob, BOB);
  await daemon.expect(201, 'POST', '/webhooks/endpoints', { url: hooks.url(`/${BOB}`), channelId: b.channelId, description: BOB }, bob.token);
  await daemon.expect(201, 'POST', '/export-destinations', { name: BOB, endpointUrl: hooks.url(`/${BOB}`), envSlug: '*', signals: ['traces'], kind: 'http' }, bob.token);
  await daemon.expect(201, 'POST', '/moderation/rules', { name: BOB, action: 'flag', detector: 'keyword', pattern: 'hello' }, bob.token);
  await daemon.expect(201, 'POST', '/spend-policies', { name: BOB, limitUsd: 1, windowType: 'day', rungs: [{ at_percent: 50, action: 'alert' }] }, bob.token);
  await daemon.expect(201, 'POST', '/v2/alerts', { name: BOB, metric: 'event_count', operator: 'gt', threshold: 0 }, bob.token);
  assert.equal((await publish(b.key, { identifier: 'x', payload: { text: 'hello' }, channel_id: b.channelId })).status, 201);
});

after(async () => {
  if (browser) await browser.close().catch(() => {});
  if (hooks) await hooks.close();
  if (daemon) await stopDaemon(daemon);
});

// ---------------------------------------------------------------- delivery

test('delivery: create an endpoint, see its secret once, watch a delivery, redeliver it, filter', { timeout: 120_000 }, async () => {
  const { context, page } = await newPage();
  await signIn(page, daemon, alice, `/console/delivery?org=${alice.orgId}`);
  await page.getByText('No webhook endpoint yet').waitFor({ timeout: WAIT });
  await page.locator('main').getByRole('button', { name: 'New endpoint' }).first().click();
  await page.getByLabel('URL').fill(hooks.url('/ok'));
  await page.getByLabel('Event types').fill('agent.message');
  await page.getByLabel('Description').fill('order notifications');
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  const secret = (await page.locator('[data-testid=once-secret] .secret-value').innerText()).trim();
  assert.match(secret, /^whsec_/);
  await shot(page, 'delivery-new-secret-light');
  await page.getByRole('button', { name: 'Done' }).click();
  assert.ok(!(await page.evaluate((s) => document.body.innerText.includes(s), secret)), 'the secret is gone once dismissed');

  // A second endpoint whose receiver answers 503: failed attempts with retries.
  await page.locator('main').getByRole('button', { name: 'New endpoint' }).click();
  await page.getByLabel('URL').fill(hooks.url('/down'));
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await page.getByRole('button', { name: 'Done' }).click();

  const before = hooks.requests.length;
  const e = await publish(aliceKey, { identifier: 'order-1042', eventType: 'agent.message', payload: { text: 'Refund order 1042' }, channel_id: aliceChannel });
  assert.equal(e.status, 201);
  await page.locator('tr[data-endpoint-id]', { hasText: '/ok' }).click();
  assert.match(page.url(), /ep=\d+/);
  const rows = page.locator('table.attempts tbody tr');
  await rows.first().waitFor({ timeout: WAIT });
  assert.equal(await rows.count(), 1);
  const first = rows.first();
  assert.equal(await first.getAttribute('data-outcome'), 'delivered');
  assert.match(await first.innerText(), new RegExp(`${e.json.id}[\\s\\S]*200`));
  const got = hooks.requests.slice(before).filter((r) => r.url === '/ok');
  assert.equal(got.length, 1);
  const webhookId = got[0].headers['webhook-id'];

  await first.getByRole('button', { name: 'Redeliver' }).click();
  await page.getByText('queued again').waitFor({ timeout: WAIT });
  await page.waitForFunction(() => document.querySelectorAll('table.attempts tbody tr').length === 2, null, { timeout: WAIT });
  const again = hooks.requests.slice(before).filter((r) => r.url === '/ok');
  assert.equal(again.length, 2, 'the receiver got the message twice');
  assert.equal(again[1].headers['webhook-id'], webhookId, 'a redelivery keeps the webhook-id');
  await shot(page, 'delivery-endpoint-light');

  // Filters live in the URL: a status class with no match empties the table, and says so.
  await page.getByLabel('Status class').selectOption('5xx');
  await page.getByText('No attempt matches these filters').waitFor();
  assert.match(page.url(), /class=5xx/);
  await page.getByLabel('Status class').selectOption('');

  // The failing endpoint: 503s, a retry scheduled, then failed.
  await page.goto(`${daemon.base}/console/delivery?org=${alice.orgId}`);
  await page.locator('tr[data-endpoint-id]', { hasText: '/down' }).click();
  await page.locator('table.attempts tbody tr[data-outcome=failed]').first().waitFor({ timeout: WAIT });
  await page.getByLabel('Outcome').selectOption('failed');
  await page.getByLabel('Status class').selectOption('5xx');
  const failed = page.locator('table.attempts tbody tr');
  assert.ok(await failed.count() >= 1);
  assert.match(await failed.first().innerText(), /503/);
  await page.getByLabel('Outcome').selectOption('');
  await page.getByLabel('Status class').selectOption('');

  // Edit: the form comes back filled in; the change shows at once.
  await page.getByRole('button', { name: 'Edit' }).click();
  assert.match(await page.getByLabel('URL').inputValue(), /\/down$/);
  await page.getByLabel('Description').fill('the flaky receiver');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('the flaky receiver').waitFor({ timeout: WAIT });

  // Disable and enable again.
  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByText('Disabled: pending messages').waitFor();
  await page.getByRole('button', { name: 'Enable' }).click();
  await page.getByText('Enabled: new events').waitFor();
  await cleanPage(page, 'delivery');
  await context.close();
});

test('delivery: the endpoints of every channel come in one request', { timeout: 60_000 }, async () => {
  // A second app with three channels, two of them with an endpoint (made through the API).
  const app = await daemon.expect(201, 'POST', '/apps', { name: 'billing-bot' }, alice.token);
  const chans = [];
  for (const name of ['invoices', 'refunds', 'disputes']) chans.push(await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name }, alice.token));
  for (const c of chans.slice(0, 2)) await daemon.expect(201, 'POST', '/webhooks/endpoints', { url: hooks.url(`/ok/${c.name}`), channelId: c.id }, alice.token);
  const all = (await daemon.expect(200, 'GET', '/webhooks/endpoints?limit=100', undefined, alice.token)).data;
  assert.equal(all.length, 4, 'the two of the first test and these two');

  const { context, page } = await newPage();
  await signIn(page, daemon, alice, `/console/delivery?org=${alice.orgId}`);
  await page.locator('tr[data-endpoint-id]').nth(all.length - 1).waitFor({ timeout: WAIT });
  await sleep(300);
  const shown = await page.$$eval('tr[data-endpoint-id]', (trs) => trs.map((tr) => Number(tr.dataset.endpointId)));
  assert.deepEqual(shown, all.map((e) => e.id));
  const table = await page.getByRole('table', { name: 'Webhook endpoints' }).innerText();
  assert.match(table, /billing-bot \/ invoices[\s\S]*billing-bot \/ refunds/);
  assert.ok(!table.includes(BOB), "another organization's endpoint");
  // Four channels, one request (it was one per channel).
  const asked = page.urls.map((u) => new URL(u)).filter((u) => u.pathname.startsWith('/webhooks/'));
  assert.deepEqual(asked.map((u) => u.pathname), ['/webhooks/endpoints'], asked.map(String).join(' '));
  await cleanPage(page, 'delivery list');
  await context.close();
});

test('delivery: an export destination is created, tested, shows header names only, and is disabled', { timeout: 60_000 }, async () => {
  const { context, page } = await newPage();
  await signIn(page, daemon, alice, `/console/delivery?org=${alice.orgId}&tab=exports`);
  await page.getByText('No export destination yet').waitFor({ timeout: WAIT });
  await page.locator('main').getByRole('button', { name: 'New destination' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('otel-collector');
  await page.getByLabel('Kind').selectOption('http');
  await page.getByLabel('Endpoint URL').fill(hooks.url('/ok'));
  await page.getByLabel('logs').check();
  const headerSecret = `Bearer hdr-${uid()}`;
  await page.getByLabel('Headers').fill(`Authorization: ${headerSecret}`);
  await page.getByRole('button', { name: 'Create destination' }).click();
  await page.getByRole('button', { name: 'Send test event' }).click();
  const result = page.locator('[data-testid=test-result]');
  await result.waitFor({ timeout: WAIT });
  assert.match(await result.innerText(), /Test delivered: status 200/);
  const test = hooks.requests.filter((r) => r.headers.authorization === headerSecret);
  assert.ok(test.length >= 1, 'the receiver got the test call with the header');
  assert.ok(!(await page.evaluate((s) => document.body.innerText.includes(s), headerSecret)), 'a header value is never shown');
  assert.match(await page.locator('main').innerText(), /Authorization/);
  // A published event goes out in a batch: its attempt appears in the history.
  const e = await publish(aliceKey, { identifier: 'exported', eventType: 'agent.message', payload: { text: 'to the collector' }, channel_id: aliceChannel });
  assert.equal(e.status, 201);
  const attempt = page.locator('table.attempts tbody tr[data-outcome=delivered]');
  await attempt.first().waitFor({ timeout: WAIT });
  assert.match(await attempt.first().innerText(), new RegExp(`${e.json.id}[\\s\\S]*200`));
  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByText('Disabled: its queue was dropped').waitFor();
  await cleanPage(page, 'export destination');
  await context.close();
});

test("delivery: a webhook endpoint's and an export destination's last 24 hours show the API's numbers", { timeout: 120_000 }, async () => {
  // An organization of its own: its two targets deliver, then fail, then stop changing.
  const carol = await newUser(daemon, 'carol');
  const c = await setUpOrg(carol, 'health-bot');
  const ep = await daemon.expect(201, 'POST', '/webhooks/endpoints', { url: hooks.url('/ok/carol'), channelId: c.channelId }, carol.token);
  const dest = await daemon.expect(201, 'POST', '/export-destinations',
    { name: 'carol-collector', kind: 'http', endpointUrl: hooks.url('/ok/carol-export'), envSlug: '*', signals: ['logs'] }, carol.token);
  const destId = dest.destinationId || dest.id;
  const health = async () => ({
    ep: (await daemon.expect(200, 'GET', `/webhooks/endpoints/${ep.id}`, undefined, carol.token)),
    dest: (await daemon.expect(200, 'GET', `/export-destinations/${destId}`, undefined, carol.token)),
  });
  const until = async (what, fn) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const h = await health();
      if (fn(h)) return h;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify({ ep: h.ep.health24h, dest: h.dest.health24h, state: h.dest.health })}`);
      await sleep(200);
    }
  };
  for (const i of [1, 2]) assert.equal((await publish(c.key, { identifier: `ok-${i}`, eventType: 'agent.message', payload: { i }, channel_id: c.channelId })).status, 201);
  await until('the deliveries', (h) => h.ep.health24h.succeeded === 2 && h.dest.health24h.succeeded >= 1);
  await daemon.expect(200, 'PATCH', `/webhooks/endpoints/${ep.id}`, { url: hooks.url('/down/carol') }, carol.token);
  await daemon.expect(200, 'PATCH', `/export-destinations/${destId}`, { endpointUrl: hooks.url('/down/carol-export') }, carol.token);
  assert.equal((await publish(c.key, { identifier: 'fails', eventType: 'agent.message', payload: {}, channel_id: c.channelId })).status, 201);
  // Both give up after their retries (delivery.retry_schedule 1s,1s): nothing changes after that.
  const failedAttempts = async () => {
    const r = await daemon.expect(200, 'GET', `/webhooks/deliveries/${ep.id}?outcome=failed`, undefined, carol.token);
    return (r.data || r).length;
  };
  const deadline = Date.now() + 30_000;
  while (!(await failedAttempts())) {
    assert.ok(Date.now() < deadline, 'the webhook message given up');
    await sleep(200);
  }
  const settled = await until('the export batch given up', (h) => h.dest.health && h.dest.health.state === 'failing' && h.ep.health24h.lastFailureStatus === 503);
  for (const h of [settled.ep.health24h, settled.dest.health24h]) {
    assert.ok(h.deliveries > h.succeeded && h.succeeded >= 1, JSON.stringify(h));
    assert.equal(h.lastFailureStatus, 503, JSON.stringify(h));
  }

  const { context, page } = await newPage();
  const check = async (where, h) => {
    const cell = where.locator('[data-testid=health24h]').first();
    await cell.waitFor({ timeout: WAIT });
    assert.equal((await cell.locator('.badge').innerText()).trim(), pct(h.successRate));
    const title = await cell.getAttribute('title');
    assert.ok(title.startsWith(`${num(h.succeeded)} of ${num(h.deliveries)} delivered in 24 h; last failure `), title);
    assert.ok(title.includes(`(HTTP ${h.lastFailureStatus})`), title);
    if (h.lastFailureReason) assert.ok(title.includes(h.lastFailureReason), title);
  };
  await signIn(page, daemon, carol, `/console/delivery?org=${carol.orgId}`);
  const epRow = page.locator(`tr[data-endpoint-id="${ep.id}"]`);
  await check(epRow, settled.ep.health24h);
  await epRow.click();
  const facts = page.locator('dl.facts');
  await check(facts, settled.ep.health24h);
  assert.match(await facts.innerText(), new RegExp(`${num(settled.ep.health24h.succeeded)} of ${num(settled.ep.health24h.deliveries)} in 24 h · last failure`));

  await page.goto(`${daemon.base}/console/delivery?org=${carol.orgId}&tab=exports`);
  const destRow = page.locator(`tr[data-destination-id="${destId}"]`);
  await check(destRow, settled.dest.health24h);
  await destRow.click();
  await check(page.locator('dl.facts'), settled.dest.health24h);
  assert.match(await page.locator('dl.facts').innerText(),
    new RegExp(`${num(settled.dest.health24h.succeeded)} of ${num(settled.dest.health24h.deliveries)} in 24 h · last failure`));
  // Nothing moved while the page was read.
  const after = await health();
  assert.deepEqual([after.ep.health24h, after.dest.health24h], [settled.ep.health24h, settled.dest.health24h]);
  await cleanPage(page, 'delivery health');
  await context.close();
});

// ---------------------------------------------------------------- moderation

test('moderation: a rule made in the console blocks in "try it", its violations appear live and are counted', { timeout: 90_000 }, async () => {
  const { context, page } = await newPage();
  await signIn(page, daemon, alice, `/console/moderation?org=${alice.orgId}`);
  await page.getByText('No moderation rule yet').waitFor({ timeout: WAIT });
  const verdict = page.locator('[data-testid=verdict]');
  await page.getByLabel('Sample payload (JSON)').fill('{"text": "please refund my order"}');
  await page.locator('[data-testid=verdict][data-decision=accept]').waitFor({ timeout: WAIT });

  await page.locator('main').getByRole('button', { name: 'New rule' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('no refunds');
  await page.getByRole('combobox', { name: 'Detector' }).fill('keyword');
  await page.getByLabel('Pattern').fill('refund');
  await page.getByLabel('Action', { exact: true }).selectOption('block');
  await page.getByRole('button', { name: 'Create rule' }).click();
  await page.locator('tr[data-rule-id]', { hasText: 'no refunds' }).waitFor({ timeout: WAIT });
  // The sample is evaluated again with the new rule, without touching it.
  await page.locator('[data-testid=verdict][data-decision=block]').waitFor({ timeout: WAIT });
  assert.match(await verdict.innerText(), /Blocked\s+by no refunds/);

  // A malformed regex is the API's 422, shown in the form; nothing is created.
  await page.locator('main').getByRole('button', { name: 'New rule' }).click();
  await page.getByLabel('Name', { exact: true }).fill('broken');
  await page.getByRole('combobox', { name: 'Detector' }).fill('regex');
  await page.getByLabel('Pattern').fill('(unclosed');
  await page.getByRole('button', { name: 'Create rule' }).click();
  await page.locator('#rule-form .error-box').waitFor({ timeout: WAIT });
  assert.match(await page.locator('#rule-form .error-box').innerText(), /pattern/);
  await page.getByRole('button', { name: 'Cancel' }).click();

  await daemon.expect(201, 'POST', '/moderation/rules', { name: 'mask e-mail', action: 'redact', detector: 'pii.email' }, alice.token);
  const blocked = await publish(aliceKey, { identifier: 'm1', eventType: 'agent.message', payload: { text: 'I want a refund' }, channel_id: aliceChannel });
  assert.equal(blocked.status, 422);
  const redacted = await publish(aliceKey, { identifier: 'm2', eventType: 'agent.message', payload: { text: 'write to jo@example.com' }, channel_id: aliceChannel });
  assert.equal(redacted.status, 201);
  const feed = page.locator('table.violations tbody tr');
  await page.waitForFunction(() => document.querySelectorAll('table.violations tbody tr').length >= 2, null, { timeout: WAIT });
  const feedText = await page.locator('table.violations').innerText();
  assert.match(feedText, /no refunds[\s\S]*block/);
  assert.match(feedText, new RegExp(`mask e-mail[\\s\\S]*#${redacted.json.id}`));
  assert.ok(!feedText.includes('jo@example.com'), 'never the matched text');
  assert.ok(await feed.count() >= 2);
  await page.locator('tr[data-rule-id]', { hasText: 'no refunds' }).locator('[data-testid=rule-violations]', { hasText: '1' }).waitFor({ timeout: WAIT });
  // The rule made through the API appears once it matched, with its count and last violation.
  const masked = page.locator('tr[data-rule-id]', { hasText: 'mask e-mail' });
  await masked.locator('[data-testid=rule-violations]', { hasText: '1' }).waitFor({ timeout: WAIT });
  await page.getByRole('table', { name: 'Efficacy by detector' }).getByText('pii.email').waitFor({ timeout: WAIT });
  const report = await daemon.expect(200, 'GET', '/moderation/efficacy', undefined, alice.token);
  const maskedCount = report.rules.find((r) => r.ruleName === 'mask e-mail');
  assert.equal(await masked.locator('[data-testid=rule-last] span').getAttribute('title'), maskedCount.lastViolationAt);
  // Every rule's count comes from that one report, polled: never a request per rule. The
  // next poll is awaited as an event (a loaded machine only delays it); then, over 4 s more,
  // at most one report per 3 s poll arrives and no request names a rule.
  const seen = page.urls.length;
  await page.waitForRequest((r) => new URL(r.url()).pathname === '/moderation/efficacy', { timeout: WAIT });
  await sleep(4000);
  const asked = page.urls.slice(seen).map((u) => new URL(u));
  assert.deepEqual(asked.filter((u) => u.searchParams.has('ruleId')).map(String), [], 'no count asked per rule');
  const reports = asked.filter((u) => u.pathname === '/moderation/efficacy').length;
  assert.ok(reports >= 1 && reports <= 3, `one report per 3 s poll, not one per rule: ${reports} in up to 7 s`);
  await shot(page, 'moderation-flow-light');

  // Pausing the rule: the sample is accepted again.
  await page.getByRole('button', { name: 'Pause no refunds' }).click();
  await page.locator('[data-testid=verdict][data-decision=accept]').waitFor({ timeout: WAIT });
  await cleanPage(page, 'moderation', [/status of 422/]); // the malformed regex's answer
  await context.close();
});

// ---------------------------------------------------------------- spend

test('spend: a policy made in the console shows its ladder, the rung in force and the next; check answers per model', { timeout: 90_000 }, async () => {
  const { context, page } = await newPage();
  await signIn(page, daemon, alice, `/console/spend?org=${alice.orgId}`);
  await page.getByText('No spend policy yet').waitFor({ timeout: WAIT });
  await page.locator('main').getByRole('button', { name: 'New policy' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('gpt-4o daily budget');
  await page.getByLabel('Limit (USD)').fill('0.01');
  await page.locator('#policy-form').getByLabel('Model', { exact: true }).fill('gpt-4o');
  // The default ladder: 50 % alert, 80 % fallback to gpt-4o-mini, 100 % hard block.
  await page.getByRole('button', { name: 'Create policy' }).click();
  const card = page.locator('section.policy', { hasText: 'gpt-4o daily budget' });
  await card.waitFor({ timeout: WAIT });
  assert.match(await card.locator('[data-testid=ladder-facts]').innerText(), /No rung reached\. Next: alert at 50%, \$0\.005 more\. Resets in/);

  const spend = (cost, model = 'gpt-4o') => publish(aliceKey, { identifier: `call-${uid()}`, eventType: 'agent.message', payload: { text: 'answer' },
    channel_id: aliceChannel, metadata: { model, cost_usd: cost } });
  assert.equal((await spend(0.0055)).status, 201);
  assert.equal((await spend(0.5, 'claude-3-5-sonnet')).status, 201); // another model: not counted
  await card.locator('[data-testid=spent]', { hasText: '55%' }).waitFor({ timeout: WAIT });
  const facts = await card.locator('[data-testid=ladder-facts]').innerText();
  assert.match(facts, /In force: alert \(from 50%\)\. Next: fallback → gpt-4o-mini at 80%, \$0\.0025 more\./);
  assert.equal(await card.locator('.rung.in-force').getAttribute('data-at'), '50');

  assert.equal((await spend(0.003)).status, 201);
  await card.locator('[data-testid=spent]', { hasText: '85%' }).waitFor({ timeout: WAIT });
  const check = page.getByRole('region', { name: 'Check before a call' });
  await check.getByLabel('Model', { exact: true }).fill('gpt-4o');
  await check.getByRole('button', { name: 'Check', exact: true }).click();
  const answer = page.locator('[data-testid=check-answer]');
  await answer.waitFor({ timeout: WAIT });
  assert.match(page.url(), /model=gpt-4o/);
  assert.equal(await answer.getAttribute('data-allowed'), 'true');
  assert.match(await answer.innerText(), /action fallback: use gpt-4o-mini[\s\S]*gpt-4o daily budget[\s\S]*85%/);
  await shot(page, 'spend-flow-light');

  assert.equal((await spend(0.002)).status, 201); // crosses 100 %: accepted, then blocked
  assert.equal((await spend(0.001)).status, 429);
  await page.reload();
  await page.locator('[data-testid=check-answer][data-allowed=false]').waitFor({ timeout: WAIT });
  assert.match(await page.locator('[data-testid=check-answer]').innerText(), /Blocked[\s\S]*block \(hard\)[\s\S]*Retry after/);
  // The refused publish is counted and listed on the policy (GET /spend-policies/{id}/refusals).
  const refusals = card.locator('details[data-testid=refusals]');
  await refusals.waitFor({ timeout: WAIT });
  assert.match(await refusals.locator('summary').innerText(), /^1 publish refused by the block rung$/);
  await refusals.locator('summary').click();
  const refusedRow = refusals.getByRole('table', { name: 'Refused publishes' }).locator('tbody tr');
  assert.equal(await refusedRow.count(), 1);
  assert.match(await refusedRow.innerText(), /\$0\.001/);
  await check.getByLabel('Model', { exact: true }).fill('claude-3-5-sonnet');
  await check.getByRole('button', { name: 'Check', exact: true }).click();
  await page.locator('[data-testid=check-answer][data-allowed=true]').getByText('no policy matches').waitFor({ timeout: WAIT });

  // Raising the limit in the editor recounts the window: the block is lifted, the fallback stays.
  await page.getByRole('button', { name: 'Edit gpt-4o daily budget' }).click();
  assert.equal(await page.getByLabel('Limit (USD)').inputValue(), '0.01');
  assert.equal(await page.getByLabel('Rung 2 fallback model').inputValue(), 'gpt-4o-mini');
  await page.getByLabel('Limit (USD)').fill('0.012');
  await page.getByRole('button', { name: 'Save' }).click();
  await card.locator('[data-testid=spent]', { hasText: '87.5%' }).waitFor({ timeout: WAIT });
  await cleanPage(page, 'spend');
  await context.close();
});

// ---------------------------------------------------------------- alerts

test('alerts: a rule made in the console fires; its history shows the notification and its delivery', { timeout: 90_000 }, async () => {
  const { context, page } = await newPage();
  await signIn(page, daemon, alice, `/console/alerts?org=${alice.orgId}`);
  await page.getByText('No alert rule yet').waitFor({ timeout: WAIT });
  await page.locator('main').getByRole('button', { name: 'New alert' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('error spike');
  await page.getByLabel('Metric').selectOption('error_count');
  await page.getByLabel('Operator').selectOption('gte');
  await page.getByLabel('Threshold').fill('1');
  await page.getByLabel('Destination type').selectOption('webhook');
  await page.getByLabel('Destination URL').fill(hooks.url('/alert'));
  await page.getByRole('button', { name: 'Create alert' }).click();
  await page.getByRole('region', { name: 'History of "error spike"' }).getByText('Never fired').waitFor({ timeout: WAIT });
  assert.match(page.url(), /rule=\d+/);
  const row = page.locator('tr[data-alert-id]', { hasText: 'error spike' });
  await row.getByText('OK').waitFor({ timeout: WAIT });

  const before = hooks.requests.length;
  assert.equal((await publish(aliceKey, { identifier: 'boom', eventType: 'agent.error', payload: { error: 'tool timed out' }, channel_id: aliceChannel })).status, 201);
  await row.getByText('Firing').waitFor({ timeout: WAIT });
  const firing = page.locator('table.history tbody tr[data-state=firing]');
  await firing.locator('[data-testid=delivered] span[title]').waitFor({ timeout: WAIT });
  const sent = hooks.requests.slice(before).filter((r) => r.url === '/alert');
  assert.equal(sent.length, 1, 'one notification to the receiver');
  const body = JSON.parse(sent[0].body);
  const notification = body.data || body;
  assert.equal(notification.state, 'firing');
  assert.equal(notification.name, 'error spike');
  await firing.locator('summary').click();
  const shown = await firing.locator('.json').innerText();
  assert.match(shown, /"state": "firing"/);
  assert.match(shown, /"metric": "error_count"/);
  await shot(page, 'alerts-flow-light');

  await page.getByRole('button', { name: 'Edit error spike' }).click();
  await page.getByLabel('Threshold').fill('5');
  await page.getByRole('button', { name: 'Save' }).click();
  await row.getByText('Errors ≥ 5 over 5 min').waitFor({ timeout: WAIT });
  await page.getByRole('button', { name: 'Pause error spike' }).click();
  await row.getByText('Paused').waitFor({ timeout: WAIT });
  await cleanPage(page, 'alerts');
  await context.close();
});

// ---------------------------------------------------------------- every screen
// Runs after the flows above and shows what they made.

async function aliceIds() {
  const endpoints = (await daemon.expect(200, 'GET', `/webhooks/endpoints/channel/${aliceChannel}`, undefined, alice.token));
  const destinations = (await daemon.expect(200, 'GET', '/export-destinations', undefined, alice.token)).data;
  const alerts = (await daemon.expect(200, 'GET', '/v2/alerts', undefined, alice.token)).data;
  return {
    endpoint: endpoints.find((e) => e.url.endsWith('/down')) || endpoints[0], destination: destinations[0], alert: alerts[0],
  };
}

test('keyboard: rows open with Enter, forms open and close without a mouse', { timeout: 60_000 }, async () => {
  const { context, page } = await newPage();
  await signIn(page, daemon, alice, `/console/delivery?org=${alice.orgId}`);
  await page.locator('tr[data-endpoint-id]').first().focus();
  await page.keyboard.press('Enter');
  await page.locator('table.attempts').waitFor({ timeout: WAIT });
  assert.match(page.url(), /ep=\d+/);
  await page.goBack();
  await page.locator('tr[data-endpoint-id]').first().waitFor({ timeout: WAIT });

  await page.goto(`${daemon.base}/console/alerts?org=${alice.orgId}`);
  await page.locator('tr[data-alert-id]').first().focus();
  await page.keyboard.press('Enter');
  await page.locator('table.history').waitFor({ timeout: WAIT });

  for (const [screen, button, form] of [['spend', 'New policy', '#policy-form'], ['moderation', 'New rule', '#rule-form'], ['alerts', 'New alert', '#alert-form']]) {
    await page.goto(`${daemon.base}/console/${screen}?org=${alice.orgId}`);
    const open = page.locator('main').getByRole('button', { name: button }).first();
    await open.waitFor({ timeout: WAIT });
    await open.focus();
    await page.keyboard.press('Enter');
    await page.locator(form).waitFor({ timeout: WAIT });
    assert.equal(await page.evaluate((f) => document.activeElement.closest(f) !== null, form), true, `${screen}: focus moves into the form`);
    await page.keyboard.type('typed by keyboard');
    assert.equal(await page.locator(`${form} input`).first().inputValue(), 'typed by keyboard');
    await page.keyboard.press('Escape');
    await page.locator(form).waitFor({ state: 'detached', timeout: WAIT });
  }
  await cleanPage(page, 'keyboard');
  await context.close();
});

test("a member who is not an admin works the screens as the API allows; another organization's data never appears", { timeout: 90_000 }, async () => {
  const carol = await newUser(daemon, 'carol');
  const inv = await daemon.expect(201, 'POST', `/organizations/${alice.orgId}/invitations`, { invitedEmail: carol.email, desired_role: 'user' }, alice.token);
  await daemon.expect(200, 'POST', `/invitations/${inv.code}/accept`, {}, carol.token);
  const ids = await aliceIds();
  const { context, page } = await newPage();
  await signIn(page, daemon, carol, `/console/delivery?org=${alice.orgId}`);
  const pages = [
    `/console/delivery?org=${alice.orgId}`, `/console/delivery?org=${alice.orgId}&ep=${ids.endpoint.id}`,
    `/console/delivery?org=${alice.orgId}&tab=exports&dest=${ids.destination.id}`, `/console/moderation?org=${alice.orgId}`,
    `/console/spend?org=${alice.orgId}&model=gpt-4o`, `/console/alerts?org=${alice.orgId}&rule=${ids.alert.alertRuleId}`,
    // Deep links into Bob's organization, or to his ids from Alice's: refused, never shown.
    `/console/delivery?org=${bob.orgId}`, `/console/moderation?org=${bob.orgId}`, `/console/spend?org=${bob.orgId}`, `/console/alerts?org=${bob.orgId}`,
  ];
  for (const p of pages) {
    await go(page, p);
    await page.locator('main .spinner').first().waitFor({ state: 'detached', timeout: WAIT }).catch(() => {});
    await sleep(300);
    const text = await page.evaluate(() => document.body.innerText + [...document.querySelectorAll('option')].map((o) => o.textContent).join(' '));
    assert.ok(!text.includes(BOB), `${p} shows Bob's data`);
    assert.equal(await page.locator('main .error-box').count(), 0, `${p}: ${await page.locator('main').innerText()}`);
  }
  // A member sees Alice's organization's data (the API lets any member manage these).
  await page.goto(`${daemon.base}/console/delivery?org=${alice.orgId}&ep=${ids.endpoint.id}`);
  await page.locator('table.attempts tbody tr').first().waitFor({ timeout: WAIT });
  // Bob's endpoint id under Alice's organization: not found, and nothing of his.
  const bobIds = await daemon.expect(200, 'GET', '/export-destinations', undefined, bob.token);
  await page.goto(`${daemon.base}/console/delivery?org=${alice.orgId}&tab=exports&dest=${bobIds.data[0].id}`);
  await page.getByText('No such export destination').waitFor({ timeout: WAIT });
  await cleanPage(page, 'member');
  await context.close();
});

test('every screen: no CSP violation or console error, axe-core clean, screenshots light and dark', { timeout: 180_000 }, async () => {
  const ids = await aliceIds();
  const o = `org=${alice.orgId}`;
  const screens = [
    { name: 'delivery', path: `/console/delivery?${o}`, ready: 'tr[data-endpoint-id]' },
    { name: 'delivery-endpoint', path: `/console/delivery?${o}&ep=${ids.endpoint.id}`, ready: 'table.attempts tbody tr' },
    { name: 'delivery-export', path: `/console/delivery?${o}&tab=exports&dest=${ids.destination.id}`, ready: 'table.attempts tbody tr' },
    { name: 'moderation', path: `/console/moderation?${o}`, ready: ['table.violations tbody tr', '[data-testid=verdict]'] },
    { name: 'moderation-new', path: `/console/moderation?${o}&new=1`, ready: '#rule-form' },
    { name: 'spend', path: `/console/spend?${o}&model=gpt-4o`, ready: '[data-testid=check-answer]' },
    { name: 'spend-new', path: `/console/spend?${o}&new=1`, ready: '#policy-form' },
    { name: 'alerts', path: `/console/alerts?${o}&rule=${ids.alert.alertRuleId}`, ready: 'table.history tbody tr' },
  ];
  const findings = {};
  const show = async (page, s, scheme) => {
    await go(page, s.path);
    for (const ready of [].concat(s.ready)) await page.locator(ready).first().waitFor({ timeout: WAIT });
    await sleep(250);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
  };
  // The strict CSP applies here: each screen is loaded, checked and shot.
  {
    const { context, page } = await newPage('light');
    await signIn(page, daemon, alice, screens[0].path);
    for (const s of screens) {
      await show(page, s, 'light');
      await cleanPage(page, `${s.name} (light)`);
      await shot(page, `${s.name}-light`);
    }
    await context.close();
  }
  // axe-core is injected, so these contexts bypass the CSP (test-only; never shipped).
  // The CSP does not depend on the theme; colour contrast does, so axe runs in both.
  for (const scheme of ['dark', 'light']) {
    const { context, page } = await newPage(scheme, true);
    await signIn(page, daemon, alice, screens[0].path);
    await page.addScriptTag({ content: axeSource() }); // survives in-app navigation
    for (const s of screens) {
      await show(page, s, scheme);
      if (scheme === 'dark') {
        await cleanPage(page, `${s.name} (dark)`);
        await shot(page, `${s.name}-dark`);
      }
      findings[`${s.name}-${scheme}`] = (await axeCheck(page, `${s.name} (${scheme})`)).map((f) => `${f.impact} ${f.id}`);
    }
    await context.close();
  }
  console.log(`# axe-core (moderate/minor only): ${JSON.stringify(findings)}`);
});
