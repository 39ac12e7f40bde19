// Plugin configuration forms in a real browser (Debian's headless Chromium, playwright-core)
// against agent-eventsd loading plugins from three directories (AEV_PLUGIN_DIRS): the
// standard ones, the SDK's examples (the NDJSON export sink and the ACME detector) and a
// test fixture whose schemas have every shape a form draws (tests/plugins/fixtures/
// typed_file_sinks.cpp).
//
//   - an export destination of the fixture's kind made through the form drawn from its
//     configSchema: one typed input per property (text, password, number, boolean and enum
//     selects), the object property in the JSON box; the plugin's refusal shown on its
//     field; the secret sealed: never in the page or the API again, "set" on edit, kept by
//     an edit that changes nothing, asked for again by one that changes the settings
//   - the SDK example's kind: its one `path` field, and its file receives the events
//   - an alert rule of a sink that needs no address: no URL field, its settings drawn, the
//     notification written to its file
//   - a moderation rule of the fixture's detector (GET /moderation/detector-kinds): its
//     detectorConfig drawn from the schema in the plugin's order, the detector's refusal on
//     its field, the rule firing on a published event, an edit keeping the stored settings;
//     the SDK example detector's one typed setting
//
//   AEV_DAEMON_BIN=build/daemon/agent-eventsd \
//   AEV_PLUGIN_DIRS=build/lib/agent-events/plugins,build/tests/example-plugins,build/tests/fixture-sink-plugins \
//     node --test tests/browser/console-plugin-forms.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  axeCheck, axeSource, cleanPage, consoleDaemon, consolePage, daemonBin, launchChromium, newUser, signIn, sleep, stopDaemon, uid,
  VIEWPORT, WAIT,
} from './support.mjs';

let daemon;
let browser;
let alice;
let key;
let channel;
let dir; // the sinks' files

const lines = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

async function until(what, fn, ms = WAIT) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${daemon.log().slice(-3000)}`);
    await sleep(100);
  }
}

async function publish(text) {
  const r = await fetch(`${daemon.base}/event`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
    body: JSON.stringify({ identifier: 'forms', eventType: 'agent.message', payload: { text }, channel_id: channel }),
  });
  const answer = await r.text();
  assert.equal(r.status, 201, answer);
  return JSON.parse(answer).id;
}

async function newPage(bypassCSP = false) {
  const context = await browser.newContext({ viewport: VIEWPORT, bypassCSP });
  return { context, page: await consolePage(context) };
}

before(async () => {
  assert.ok(daemonBin, 'AEV_DAEMON_BIN must name the built agent-eventsd');
  assert.ok(process.env.AEV_PLUGIN_DIRS, 'AEV_PLUGIN_DIRS must list the standard, example and fixture plugin dirs');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aev-forms-'));
  daemon = consoleDaemon({
    'plugins.dir': process.env.AEV_PLUGIN_DIRS,
    'delivery.retry_schedule': '1s,1s',
    'delivery.poll_interval_ms': '100',
    'alerts.evaluate_interval_seconds': '1',
  });
  await daemon.start();
  browser = await launchChromium();
  alice = await newUser(daemon, 'forms');
  const app = await daemon.expect(201, 'POST', '/apps', { name: 'forms-app' }, alice.token);
  channel = (await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'forms-channel' }, alice.token)).id;
  key = (await daemon.expect(201, 'POST', '/api-keys', { name: 'forms-key', scopes: ['publish'] }, alice.token)).key;
});

after(async () => {
  if (browser) await browser.close().catch(() => {});
  if (daemon) await stopDaemon(daemon);
  if (dir && process.env.AEV_KEEP_TEMP !== '1') fs.rmSync(dir, { recursive: true, force: true });
});

test('an export destination of a plugin kind is made through the form drawn from its schema; its secret is never shown', { timeout: 120_000 }, async () => {
  const { context, page } = await newPage();
  const token = `tok_${uid()}`;
  const file = path.join(dir, 'typed.ndjson');
  await signIn(page, daemon, alice, `/console/delivery?org=${alice.orgId}&tab=exports`);
  await page.locator('main').getByRole('button', { name: 'New destination' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('typed sink');
  await page.getByLabel('Kind').selectOption('typed_file');

  // One input per property, typed by the schema; the object property goes to the JSON box.
  const fields = page.locator('[data-testid=config-fields]');
  await fields.waitFor({ timeout: WAIT });
  assert.deepEqual(await fields.locator('[data-config-key]').evaluateAll((els) => els.map((e) => e.dataset.configKey)),
    ['path', 'token', 'label', 'maxLineBytes', 'flush', 'format']);
  const input = (k) => fields.locator(`[data-config-key=${k}] :is(input, select)`);
  assert.equal(await input('path').getAttribute('type'), 'text');
  assert.equal(await input('path').getAttribute('required'), '');
  assert.equal(await input('token').getAttribute('type'), 'password');
  assert.equal(await input('maxLineBytes').getAttribute('type'), 'number');
  assert.equal(await input('maxLineBytes').getAttribute('min'), '256');
  assert.equal(await input('label').getAttribute('placeholder'), 'agent-events');
  assert.equal(await input('flush').evaluate((e) => e.tagName), 'SELECT');
  assert.deepEqual(await input('format').locator('option').allInnerTexts(), ['Default (ndjson)', 'ndjson', 'json-seq']);
  assert.match(await fields.locator('[data-config-key=path]').innerText(), /File path[\s\S]*Absolute path of the NDJSON file/);
  assert.match(await fields.locator('[data-config-key=maxLineBytes]').innerText(), /Default: 65536/);
  assert.match(await page.getByLabel('Configuration: other settings (JSON)').evaluate((e) => e.id), /dest-config-json/);
  assert.equal(await page.getByLabel('Endpoint URL').getAttribute('required'), null, 'this kind needs no URL');

  await page.getByLabel('logs').check(); // the kind ships logs only
  await page.getByLabel('traces').uncheck();
  // The plugin refuses a relative path: its message lands on the path field, nothing is made.
  await page.getByLabel('File path').fill('relative.ndjson');
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Create destination' }).click();
  const problem = page.locator('#dest-form .error-box');
  await problem.waitFor({ timeout: WAIT });
  const pathError = fields.locator('[data-config-key=path] .field-error');
  assert.equal(await pathError.count(), 1, `the refusal on the path field: ${await problem.innerText()}`);
  assert.match(await pathError.innerText(), /path must be an absolute file path/);
  assert.equal(await input('path').getAttribute('aria-invalid'), 'true');
  assert.equal((await daemon.expect(200, 'GET', '/export-destinations', undefined, alice.token)).data.length, 0);

  await page.getByLabel('File path').fill(file);
  await input('maxLineBytes').fill('4096');
  await input('flush').selectOption({ label: 'true' });
  await input('format').selectOption({ label: 'json-seq' });
  await page.getByLabel('Configuration: other settings (JSON)').fill('{"tags": {"team": "support"}}');
  await page.getByRole('button', { name: 'Create destination' }).click();
  await page.getByRole('heading', { name: 'typed sink' }).waitFor({ timeout: WAIT });

  // Typed values reached the API; the secret did not come back, anywhere.
  const [saved] = (await daemon.expect(200, 'GET', '/export-destinations', undefined, alice.token)).data;
  assert.deepEqual(saved.config, { path: file, maxLineBytes: 4096, flush: true, format: 'json-seq', tags: { team: 'support' } });
  assert.deepEqual(saved.secretConfigKeys, ['token']);
  const one = await daemon.call('GET', `/export-destinations/${saved.destinationId}`, undefined, alice.token);
  assert.ok(!one.text.includes(token), 'the API never returns the secret');
  assert.ok(!(await page.content()).includes(token), 'the page never shows the secret');
  // The plugin got it opened: the events arrive.
  const id = await publish('to the typed sink');
  await until('the event in the typed sink\'s file', () => lines(file).some((l) => l.event.id === id));

  // Editing: the secret is "set", its input empty; an edit that changes no setting keeps it.
  await page.getByRole('button', { name: 'Edit' }).click();
  await fields.waitFor({ timeout: WAIT });
  assert.equal(await input('token').inputValue(), '');
  assert.match(await fields.locator('[data-config-key=token]').innerText(), /set[\s\S]*Leave empty to keep it/);
  assert.equal(await input('path').inputValue(), file);
  assert.equal(await input('maxLineBytes').inputValue(), '4096');
  assert.ok(!(await page.content()).includes(token), 'the edit form never holds the secret');
  await page.getByLabel('Name', { exact: true }).fill('typed sink 2');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: 'typed sink 2' }).waitFor({ timeout: WAIT });
  assert.deepEqual((await daemon.expect(200, 'GET', `/export-destinations/${saved.destinationId}`, undefined, alice.token)).secretConfigKeys, ['token']);

  // Changed settings replace the whole object: the stored secret must be entered again.
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('label', { exact: true }).fill('second');
  await page.getByRole('button', { name: 'Save' }).click();
  const tokenError = fields.locator('[data-config-key=token] .field-error');
  await tokenError.waitFor({ timeout: WAIT });
  assert.match(await tokenError.innerText(), /enter it again/);
  await page.getByLabel('Access token').fill(`${token}b`);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: 'typed sink 2' }).waitFor({ timeout: WAIT });
  const after = await daemon.call('GET', `/export-destinations/${saved.destinationId}`, undefined, alice.token);
  assert.equal(after.json.config.label, 'second');
  assert.deepEqual(after.json.secretConfigKeys, ['token']);
  assert.ok(!after.text.includes(token));
  const id2 = await publish('after the edit');
  await until('the edited label in the file', () => lines(file).some((l) => l.event.id === id2 && l.label === 'second'));
  await cleanPage(page, 'typed destination', [/status of 422/]);
  await context.close();
});

test('the SDK example sink\'s kind draws its one path field, and its file receives the events', { timeout: 60_000 }, async () => {
  const { context, page } = await newPage();
  const file = path.join(dir, 'example.ndjson');
  await signIn(page, daemon, alice, `/console/delivery?org=${alice.orgId}&tab=exports&new=1`);
  await page.getByLabel('Name', { exact: true }).fill('example sink');
  await page.getByLabel('Kind').selectOption('ndjson_file');
  const fields = page.locator('[data-testid=config-fields]');
  await fields.waitFor({ timeout: WAIT });
  assert.deepEqual(await fields.locator('[data-config-key]').evaluateAll((els) => els.map((e) => e.dataset.configKey)), ['path']);
  await page.getByLabel('path').fill(file);
  await page.getByLabel('logs').check();
  await page.getByLabel('traces').uncheck();
  await page.getByRole('button', { name: 'Create destination' }).click();
  await page.getByRole('heading', { name: 'example sink' }).waitFor({ timeout: WAIT });
  const id = await publish('to the example sink');
  await until('the event in the example sink\'s file', () => lines(file).some((l) => l.id === id));
  await cleanPage(page, 'example destination');
  await context.close();
});

test('an alert rule of a sink that needs no address has no URL field; its settings are drawn and it fires', { timeout: 90_000 }, async () => {
  const { context, page } = await newPage();
  const file = path.join(dir, 'alerts.ndjson');
  await signIn(page, daemon, alice, `/console/alerts?org=${alice.orgId}&new=1`);
  await page.getByLabel('Name', { exact: true }).fill('any message');
  await page.getByLabel('Metric').selectOption('event_count');
  await page.getByLabel('Operator').selectOption('gt');
  await page.getByLabel('Threshold').fill('0');
  await page.getByLabel('Destination type').selectOption('webhook');
  assert.equal(await page.getByLabel('Destination URL').getAttribute('required'), '', 'the webhook sink needs an address');
  assert.equal(await page.locator('#al-config-secret').getAttribute('type'), 'password');
  await page.getByLabel('Destination type').selectOption('file');
  assert.equal(await page.getByLabel('Destination URL').count(), 0, 'the file sink needs no address');
  await page.locator('#al-config-path').fill(file);
  await page.getByRole('button', { name: 'Create alert' }).click();
  await page.getByRole('region', { name: 'History of "any message"' }).waitFor({ timeout: WAIT });
  const [rule] = (await daemon.expect(200, 'GET', '/v2/alerts', undefined, alice.token)).data;
  assert.equal(rule.destination, null);
  assert.equal(rule.destinationType, 'file');
  assert.deepEqual(rule.destinationConfig, { path: file });
  await publish('fires the alert');
  await until('the notification in the file sink', () => lines(file).some((l) => l.alertRuleId === rule.alertRuleId && l.state === 'firing'));
  await cleanPage(page, 'alert of the file sink');
  await context.close();
});

test('a moderation rule of a plugin detector is made through the form drawn from its schema, and fires', { timeout: 120_000 }, async () => {
  const { context, page } = await newPage();
  await signIn(page, daemon, alice, `/console/moderation?org=${alice.orgId}&new=1`);
  const kinds = (await daemon.expect(200, 'GET', '/moderation/detector-kinds', undefined, alice.token)).data;
  const word = kinds.find((k) => k.name === 'typed.word');
  assert.ok(word, 'the fixture detector is listed');
  // The detector field offers every detector the daemon knows.
  await page.locator('#rule-detectors option').nth(kinds.length - 1).waitFor({ state: 'attached', timeout: WAIT });
  assert.deepEqual(await page.locator('#rule-detectors option').evaluateAll((os) => os.map((o) => o.value)), kinds.map((k) => k.name));

  await page.getByLabel('Name', { exact: true }).fill('refund words');
  await page.getByRole('combobox', { name: 'Detector' }).fill('typed.word');
  const fields = page.locator('#rule-form [data-testid=config-fields]');
  await fields.waitFor({ timeout: WAIT });
  // One input per property, in the plugin's order, typed by the schema.
  assert.deepEqual(await fields.locator('[data-config-key]').evaluateAll((els) => els.map((e) => e.dataset.configKey)),
    Object.keys(word.configSchema.properties));
  const input = (k) => fields.locator(`[data-config-key=${k}] :is(input, select)`);
  assert.equal(await input('word').getAttribute('type'), 'text');
  assert.equal(await input('word').getAttribute('required'), '');
  assert.equal(await input('score').getAttribute('type'), 'number');
  assert.equal(await input('score').getAttribute('max'), '1');
  assert.equal(await input('caseSensitive').evaluate((e) => e.tagName), 'SELECT');
  assert.equal(await input('token').getAttribute('type'), 'password');
  assert.match(await fields.locator('[data-config-key=word]').innerText(), /Word[\s\S]*Letters only/);
  assert.equal(await page.getByLabel('Pattern').isDisabled(), true, 'a plugin detector takes no pattern');
  assert.deepEqual(await page.locator('#rule-target option').evaluateAll((os) => os.map((o) => o.value)), word.targets);
  assert.equal(await page.getByLabel('Minimum score').getAttribute('type'), 'number');

  // The detector refuses the word: its message lands on the word field; nothing is made.
  await input('word').fill('two words');
  await page.getByLabel('Action', { exact: true }).selectOption('flag');
  await page.getByRole('button', { name: 'Create rule' }).click();
  const wordError = fields.locator('[data-config-key=word] .field-error');
  await wordError.waitFor({ timeout: WAIT });
  assert.match(await wordError.innerText(), /word must be letters only/);
  assert.equal(await input('word').getAttribute('aria-invalid'), 'true');
  assert.equal((await daemon.expect(200, 'GET', '/moderation/rules', undefined, alice.token)).data.length, 0);

  await input('word').fill('refund');
  await input('label').fill('money');
  await page.getByLabel('Minimum score').fill('0.5');
  await page.getByRole('button', { name: 'Create rule' }).click();
  const row = page.locator('tr[data-rule-id]', { hasText: 'refund words' });
  await row.waitFor({ timeout: WAIT });
  const [rule] = (await daemon.expect(200, 'GET', '/moderation/rules', undefined, alice.token)).data;
  assert.equal(rule.detector, 'typed.word');
  assert.deepEqual(rule.detectorConfig, { word: 'refund', label: 'money' });
  assert.equal(rule.minScore, 0.5);

  // It fires on a published event: the violation, with the detector's label and score.
  const id = await publish('I want a REFUND for order 7');
  await page.locator('table.violations tbody tr', { hasText: 'refund words' }).waitFor({ timeout: WAIT });
  const [v] = (await daemon.expect(200, 'GET', `/moderation/violations?ruleId=${rule.ruleId}`, undefined, alice.token)).data;
  assert.equal(String(v.eventId), String(id));
  assert.deepEqual(v.matches.map((m) => [m.detector, m.label, m.score]), [['typed.word', 'money', 0.8]]);

  // Editing: the stored settings fill the drawn inputs; a save that changes none keeps them.
  await row.getByRole('button', { name: 'Edit refund words' }).click();
  await fields.waitFor({ timeout: WAIT });
  assert.equal(await input('word').inputValue(), 'refund');
  assert.equal(await input('label').inputValue(), 'money');
  assert.equal(await page.getByLabel('Minimum score').inputValue(), '0.5');
  await page.getByLabel('Name', { exact: true }).fill('refund words 2');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('tr[data-rule-id]', { hasText: 'refund words 2' }).waitFor({ timeout: WAIT });
  const edited = await daemon.expect(200, 'GET', `/moderation/rules/${rule.ruleId}`, undefined, alice.token);
  assert.deepEqual([edited.detectorConfig, edited.minScore], [{ word: 'refund', label: 'money' }, 0.5]);

  // The SDK example detector draws its one setting: digits, a whole number from 4 to 16.
  await page.locator('main').getByRole('button', { name: 'New rule' }).click();
  await page.getByRole('combobox', { name: 'Detector' }).fill('acme.customer_number');
  await fields.locator('[data-config-key=digits]').waitFor({ timeout: WAIT });
  assert.deepEqual(await fields.locator('[data-config-key]').evaluateAll((els) => els.map((e) => e.dataset.configKey)), ['digits']);
  assert.deepEqual(await input('digits').evaluate((e) => [e.type, e.min, e.max, e.step, e.placeholder]), ['number', '4', '16', '1', '8']);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await cleanPage(page, 'moderation rule of a plugin detector', [/status of 422/]);
  await context.close();
});

test('the drawn forms have no serious or critical axe-core finding', { timeout: 60_000 }, async () => {
  // axe-core is injected as a script: this context bypasses the CSP (the other tests keep it).
  const { context, page } = await newPage(true);
  await signIn(page, daemon, alice, `/console/delivery?org=${alice.orgId}&tab=exports&new=1`);
  await page.getByLabel('Kind').selectOption('typed_file');
  await page.locator('[data-testid=config-fields]').waitFor({ timeout: WAIT });
  await axeCheck(page, 'destination form of the typed kind', axeSource());
  await page.goto(`${daemon.base}/console/alerts?org=${alice.orgId}&new=1`);
  await page.getByLabel('Destination type').selectOption('webhook');
  await page.locator('#al-config-secret').waitFor({ timeout: WAIT });
  await axeCheck(page, 'alert form of the webhook sink', axeSource());
  await page.goto(`${daemon.base}/console/moderation?org=${alice.orgId}&new=1`);
  await page.getByRole('combobox', { name: 'Detector' }).fill('typed.word');
  await page.locator('#rule-form [data-testid=config-fields]').waitFor({ timeout: WAIT });
  await axeCheck(page, 'moderation rule form of a plugin detector', axeSource());
  await context.close();
});
