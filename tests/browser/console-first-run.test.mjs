// The first minutes without the demo, in a real browser (Debian's headless Chromium, driven
// by playwright-core): a new organization's live tail and traces list have nothing to show
// yet, so they show how to publish into the user's own channel, with its real id; the key
// created from that screen fills the curl command and the OTLP variables, and an event
// published with exactly that key shows up in the live tail.
//
//   AEV_DAEMON_BIN=build/daemon/agent-eventsd node --test tests/browser/console-first-run.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  axeCheck, axeSource, cleanPage, consoleDaemon, consolePage, daemonBin, launchChromium, newUser, shot, signIn,
  stopDaemon, VIEWPORT, WAIT,
} from './support.mjs';

let daemon;
let browser;
let user;
let channelId;

before(async () => {
  assert.ok(daemonBin, 'AEV_DAEMON_BIN must name the built agent-eventsd');
  daemon = consoleDaemon();
  await daemon.start();
  browser = await launchChromium();
  user = await newUser(daemon, 'firstrun');
  const app = await daemon.expect(201, 'POST', '/apps', { name: 'my-agent' }, user.token);
  channelId = (await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'prod' }, user.token)).id;
});

after(async () => {
  if (browser) await browser.close().catch(() => {});
  if (daemon) await stopDaemon(daemon);
});

test('empty live and traces screens show how to publish into the user\'s channel, with a key made there', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, daemon, user, `/console/live?channel=${channelId}&org=${user.orgId}`, WAIT);
  const help = page.getByTestId('publish-help');
  await help.waitFor({ timeout: WAIT });
  const curl = page.getByTestId('publish-curl');
  assert.match(await curl.textContent(), new RegExp(`"channel_id":${channelId}\\b`));
  assert.match(await curl.textContent(), new RegExp(`${daemon.base}/event`));
  assert.match(await page.getByTestId('publish-otlp').textContent(), new RegExp(`x-channel-id=${channelId}\\b`));

  await page.getByTestId('create-publish-key').click();
  const shown = await page.getByTestId('publish-key').locator('code').textContent({ timeout: WAIT });
  assert.match(shown, /^aes_/);
  assert.ok((await curl.textContent()).includes(`x-api-key: ${shown}`), 'the curl command does not carry the new key');
  assert.ok((await page.getByTestId('publish-otlp').textContent()).includes(`x-api-key=${shown}`), 'the OTLP headers do not carry the new key');
  await shot(page, 'first-run-live');

  // The command as shown works: the event arrives in the live tail.
  const r = await daemon.call('POST', '/event', { identifier: 'hello', eventType: 'agent.message', channel_id: channelId, payload: { text: 'hi' } },
                              undefined, { 'X-API-Key': shown });
  assert.equal(r.status, 201, r.text);
  await page.locator(`tr[data-event-id="${r.json.id}"]`).waitFor({ timeout: WAIT });

  await page.goto(`${daemon.base}/console/traces?org=${user.orgId}`);
  const tracesHelp = page.getByTestId('publish-curl');
  await tracesHelp.waitFor({ timeout: WAIT });
  const text = await tracesHelp.textContent();
  assert.match(text, new RegExp(`"channel_id":${channelId}\\b`));
  assert.match(text, /"traceId":"first-trace"/);
  await shot(page, 'first-run-traces');
  await cleanPage(page, 'first-run screens');
  await context.close();

  // axe-core is injected as a script, which the console's CSP refuses: its own context.
  const axeContext = await browser.newContext({ viewport: VIEWPORT, bypassCSP: true });
  const axePage = await consolePage(axeContext);
  await signIn(axePage, daemon, user, `/console/traces?org=${user.orgId}`, WAIT);
  await axePage.getByTestId('publish-help').waitFor({ timeout: WAIT });
  await axeCheck(axePage, 'first-run traces list', axeSource());
  await axeContext.close();
});
