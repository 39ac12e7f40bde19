// The console's administration screens in a real browser (Debian's headless Chromium,
// driven by playwright-core) against agent-eventsd serving /console/ itself:
//
//   - audit log: changes appear as entries; filters, pages and the entry panel; "Verify
//     chain" shows the seq, head hash and signed checkpoint it proved; after a stored
//     row is altered through the store (the SQLite file), it names the broken seq
//   - settings: organization and usage, members and roles, invitations, access requests,
//     API keys, environments, apps and channels, driven end to end (deletions confirmed
//     in a dialog that says what goes, Esc cancels); the changes then show in the audit log
//   - a member without the admin role sees what the API lets it see (a 403 shown as
//     such); a user of another organization never sees the first one's data
//   - every screen: no CSP violation, no console error, no serious or critical axe-core
//     finding; screenshots light and dark (AEV_SCREENSHOT_DIR)
//
//   AEV_DAEMON_BIN=build/daemon/agent-eventsd AEV_SCREENSHOT_DIR=/tmp/shots \
//     node --test tests/browser/console-admin.test.mjs
// (AEV_CONSOLE_DIR=daemon/console serves the console's files from the source tree.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  axeSource, consoleDaemon, consolePage, daemonBin, launchChromium, shot, signIn as signInTo, sleep, stopDaemon, uid,
  VIEWPORT, WAIT,
} from './support.mjs';

let daemon;
let browser;

// ---------------------------------------------------------------- API set-up helpers

// The daemon runs with auth.registration=approval: the first account is the instance
// administrator; later ones wait for its approval (approve: false leaves them waiting).
async function newUser(tag, { approve = true } = {}) {
  const id = uid();
  const user = { username: `${tag}_${id}`, email: `${tag}-${id}@example.test`, password: `pw-${id}-Secret!` };
  const reg = await daemon.expect(201, 'POST', '/auth/register', user);
  if (!approve) return { ...user, id: reg.id, orgId: reg.organizationId };
  if (reg.disabledAt) {
    const pending = await daemon.expect(200, 'GET', '/admin/access-requests?status=pending', undefined, admin.token);
    const request = pending.data.find((r) => r.userId === String(reg.id));
    await daemon.expect(200, 'POST', `/admin/access-requests/${request.requestId}/status`, { status: 'approved' }, admin.token);
  }
  const login = await daemon.expect(200, 'POST', '/auth/login', { login: user.username, password: user.password });
  return { ...user, id: reg.id, orgId: reg.organizationId, token: login.access_token };
}

async function publishWithKey(key, body) {
  const r = await daemon.call('POST', '/event', body, undefined, { 'X-API-Key': key });
  assert.equal(r.status, 201, `publish → ${r.status} ${r.text}`);
  return r.json;
}

// ---------------------------------------------------------------- browser helpers

// `expected`: statuses the screen asked for on purpose (a member's 403) and shows as such;
// the browser logs each failed fetch as a console error.
async function cleanPage(page, what, expected = []) {
  const csp = await page.evaluate(() => window.__csp || []);
  assert.deepEqual(csp, [], `${what}: CSP violations`);
  const allowed = [401, ...expected].map((s) => `status of ${s}`);
  const problems = page.problems.filter((p) => !allowed.some((a) => p.includes(a)));
  assert.deepEqual(problems, [], `${what}: console errors`);
  page.problems = [];
}

const signIn = (page, user, to) => signInTo(page, daemon, user, to, WAIT);

// axe-core runs through the DevTools protocol (page.evaluate), which the page's CSP does
// not govern, so one strict page serves both checks. Whatever axe itself trips while it
// probes the page is not the page's doing: cleanPage runs first, and the record is reset.
async function axeCheck(page, what) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource());
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  await page.evaluate(() => { window.__csp = []; });
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${what}: axe-core serious/critical findings`);
}

// Each screen state: clean (CSP, console), axe-clean, then light and dark screenshots.
async function checkScreen(page, name, expected = []) {
  await sleep(250);
  await cleanPage(page, name, expected);
  await axeCheck(page, name);
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    // The console follows the system theme through a media-query listener.
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme, { timeout: WAIT });
    await sleep(50);
    await shot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: WAIT });
}

// The SQLite file of the daemon under test: the test changes a row behind its back.
function sqlite(sql) {
  return execFileSync(process.env.AEV_SQLITE3 || 'sqlite3', [path.join(daemon.dataDir, 'agent-events.db'), sql], { encoding: 'utf8' }).trim();
}

// ---------------------------------------------------------------- set-up

let admin; // the first account: instance administrator, admin of its organization
let other; // another organization
let member; // joins the admin's organization with the user role (settings test)

before(async () => {
  assert.ok(daemonBin, 'AEV_DAEMON_BIN must name the built agent-eventsd');
  daemon = consoleDaemon({ 'auth.registration': 'approval' });
  await daemon.start();
  browser = await launchChromium();
  admin = await newUser('admin');
  other = await newUser('other');
  await daemon.expect(201, 'POST', '/apps', { name: 'other-private-app' }, other.token);
  member = await newUser('member');
});

after(async () => {
  if (browser) await browser.close().catch(() => {});
  if (daemon) await stopDaemon(daemon);
});

// ---------------------------------------------------------------- audit log

test('audit log: changes appear, filters and pages work, verify proves the chain and names a broken seq', { timeout: 120_000 }, async () => {
  // Changes made through the API: 55 apps (more than a page) and a revoked key.
  const apps = [];
  for (let i = 0; i < 55; i += 1) apps.push(await daemon.expect(201, 'POST', '/apps', { name: `audited-${i}` }, admin.token));
  const key = await daemon.expect(201, 'POST', '/api-keys', { name: 'audited-key', scopes: ['read'] }, admin.token);
  await daemon.expect(204, 'DELETE', `/api-keys/${key.id}`, undefined, admin.token);

  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, admin, `/console/audit?org=${admin.orgId}`); // itself an entry: user.login
  const all = (await daemon.expect(200, 'GET', '/audit-logs?limit=200', undefined, admin.token)).data;
  const head = all[0].seq;
  assert.equal(all[0].action, 'user.login');
  assert.equal(all[1].action, 'apikey.revoke');
  const rows = page.locator('table.audit tbody tr');
  await page.locator(`table.audit tr[data-seq="${head}"]`).waitFor({ timeout: WAIT });
  assert.equal(await rows.count(), 50, 'a page of 50 entries');
  assert.match(await rows.nth(1).innerText(), /apikey\.revoke/);
  assert.match(await rows.first().innerText(), new RegExp(admin.email.replace(/[.+]/g, '\\$&')));

  // Older: the next page continues exactly where the first ended.
  const lastOfFirst = Number(await rows.last().getAttribute('data-seq'));
  await page.getByRole('button', { name: 'Older' }).click();
  await page.locator(`table.audit tr[data-seq="${lastOfFirst - 1}"]`).waitFor({ timeout: WAIT });
  assert.equal(Number(await rows.first().getAttribute('data-seq')), lastOfFirst - 1);
  assert.equal(Number(await rows.last().getAttribute('data-seq')), 1);
  // Newer: back up to the page just above, the same 50 as the first.
  await page.getByRole('button', { name: 'Newer' }).click();
  await page.locator(`table.audit tr[data-seq="${head}"]`).waitFor({ timeout: WAIT });
  assert.equal(await rows.count(), 50);
  assert.equal(Number(await rows.last().getAttribute('data-seq')), lastOfFirst);
  assert.match(page.url(), new RegExp(`after=${lastOfFirst - 1}\\b`));
  assert.ok(await page.getByRole('button', { name: 'Newer' }).isDisabled(), 'nothing newer than the head');
  assert.ok(await page.getByRole('button', { name: 'Newest' }).isDisabled(), 'this is the newest page');
  await page.getByRole('button', { name: 'Older' }).click();
  await page.locator(`table.audit tr[data-seq="${lastOfFirst - 1}"]`).waitFor({ timeout: WAIT });
  await page.getByRole('button', { name: 'Newest' }).click();
  await page.locator(`table.audit tr[data-seq="${head}"]`).waitFor({ timeout: WAIT });
  assert.ok(!/after=|before=/.test(page.url()));

  // Filters: an action, then a source with nothing in it (an empty state that says why).
  await page.getByLabel('Action').fill('apikey.create');
  await page.getByLabel('Action').press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('table.audit tbody tr').length === 1, null, { timeout: WAIT });
  assert.match(page.url(), /action=apikey\.create/);
  // The entry panel, by keyboard: the row takes focus, Enter opens it, Esc closes it.
  await rows.first().focus();
  await page.keyboard.press('Enter');
  const panel = page.locator('[data-testid=audit-entry]');
  await panel.waitFor({ timeout: WAIT });
  assert.match(await panel.innerText(), /apikey\.create/);
  assert.match(await panel.innerText(), /audited-key/);
  assert.match(await panel.innerText(), new RegExp(String(key.id)));
  await checkScreen(page, 'audit-entry');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await page.locator('#au-source').selectOption('mcp');
  await page.getByText('No entry matches these filters').waitFor({ timeout: WAIT });
  await checkScreen(page, 'audit-empty');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.locator(`table.audit tr[data-seq="${head}"]`).waitFor({ timeout: WAIT });

  // Verify: intact through the head, with its hash and a signed checkpoint.
  await page.getByRole('button', { name: 'Verify chain' }).click();
  const result = page.locator('[data-testid=verify-result]');
  await result.waitFor({ timeout: WAIT });
  const verified = await daemon.expect(200, 'GET', '/audit-logs/verify', undefined, admin.token);
  assert.equal(await result.getAttribute('data-ok'), 'true');
  const okText = await result.innerText();
  assert.match(okText, new RegExp(`Verified through seq ${head}\\b`));
  assert.ok(okText.includes(all[0].entryHash), 'the head hash is shown');
  assert.ok(okText.includes(verified.checkpoint.publicKey), 'the public key is shown');
  assert.ok(okText.includes(verified.checkpoint.signature), 'the signature is shown');
  await checkScreen(page, 'audit-verified');

  // Tamper with one stored row through the store: the app created 20th gets another name.
  const victim = all.find((e) => e.action === 'app.create' && e.metadata && e.metadata.name === 'audited-19');
  assert.ok(victim, 'the entry of audited-19');
  sqlite(`UPDATE audit_log SET metadata = replace(metadata, 'audited-19', 'renamed-19') WHERE org_id = ${admin.orgId} AND seq = ${victim.seq}`);
  assert.match(sqlite(`SELECT metadata FROM audit_log WHERE org_id = ${admin.orgId} AND seq = ${victim.seq}`), /renamed-19/);
  await page.getByRole('button', { name: 'Verify chain' }).click();
  await page.locator('[data-testid=verify-result][data-ok=false]').waitFor({ timeout: WAIT });
  assert.equal(await result.getAttribute('data-broken-seq'), String(victim.seq));
  const badText = await result.innerText();
  assert.match(badText, new RegExp(`Chain broken\\s+at seq ${victim.seq}\\b`));
  assert.match(badText, new RegExp(`entryHash of seq ${victim.seq} does not match its content`));
  await checkScreen(page, 'audit-broken');
  // "Show seq N" opens the altered entry on its page.
  await page.getByRole('button', { name: `Show seq ${victim.seq}` }).click();
  await panel.getByText('renamed-19').waitFor({ timeout: WAIT }); // the row as stored now
  assert.equal(await page.locator('table.audit tr.selected').getAttribute('data-seq'), String(victim.seq));
  await cleanPage(page, 'audit log');
  await context.close();
});

// ---------------------------------------------------------------- settings

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Waits until the API lists key `id` with this default channel (the console's PATCH landed).
async function waitForDefault(id, channelId) {
  const deadline = Date.now() + WAIT;
  for (;;) {
    const keys = await daemon.expect(200, 'GET', '/api-keys', undefined, admin.token);
    const key = keys.find((k) => k.id === id);
    if (key && key.defaultChannelId === channelId) return;
    assert.ok(Date.now() < deadline, `key ${id} never got default channel ${channelId}: ${JSON.stringify(key)}`);
    await sleep(100);
  }
}

test('settings: organization and usage, members, invitations, access requests, keys, environments, apps and channels', { timeout: 120_000 }, async () => {
  // Something to count and to delete: an app with two channels, 3 events in the first.
  const app = await daemon.expect(201, 'POST', '/apps', { name: 'billing-bot' }, admin.token);
  const chA = await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'invoices' }, admin.token);
  const chB = await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'refunds' }, admin.token);
  const seedKey = await daemon.expect(201, 'POST', '/api-keys', { name: 'seed', scopes: ['publish'] }, admin.token);
  for (let i = 0; i < 3; i += 1) await publishWithKey(seedKey.key, { identifier: `inv-${i}`, payload: { i }, channel_id: chA.id });
  const applicantA = await newUser('applicant-a', { approve: false });
  const applicantB = await newUser('applicant-b', { approve: false });
  const orgBefore = await daemon.expect(200, 'GET', `/organizations/${admin.orgId}`, undefined, admin.token);

  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: daemon.base });
  const page = await consolePage(context);
  await signIn(page, admin, `/console/settings?org=${admin.orgId}`);

  // Organization: plan and this month's usage, as the API counts it.
  const events = page.locator('[data-testid=usage-events]');
  await events.waitFor({ timeout: WAIT });
  assert.match(await events.innerText(), new RegExp(`${orgBefore.usage.events}\\s+of\\s+100,000`));
  assert.ok(orgBefore.usage.events >= 3);
  assert.match(await page.locator('[data-testid=usage-seats]').innerText(), /1\s+of\s+5/);
  assert.match(await page.locator('[data-testid=org-card]').innerText(), /free/);
  await checkScreen(page, 'settings-organization');
  await page.getByLabel('Organization name', { exact: true }).fill('Acme Agents');
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await page.locator('[data-testid=org-card] h2', { hasText: 'Acme Agents' }).waitFor({ timeout: WAIT });
  assert.equal((await daemon.expect(200, 'GET', `/organizations/${admin.orgId}`, undefined, admin.token)).name, 'Acme Agents');

  // Invitations: the code is shown once and copied; the member accepts it; a seat is taken.
  await page.getByLabel('E-mail to invite').fill(member.email);
  await page.getByRole('button', { name: 'Invite' }).click();
  const fresh = page.locator('[data-testid=new-invitation]');
  await fresh.waitFor({ timeout: WAIT });
  const code = (await fresh.locator('.secret-value').innerText()).trim();
  assert.match(code, /^inv_[A-Za-z0-9]{32}$/);
  await fresh.getByRole('button', { name: 'Copy code' }).click();
  await fresh.getByRole('button', { name: 'Copied' }).waitFor({ timeout: WAIT });
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  await page.locator('[data-testid=usage-seats]', { hasText: /2\s+of\s+5/ }).waitFor({ timeout: WAIT });
  await fresh.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await checkScreen(page, 'settings-invitation');
  await fresh.getByRole('button', { name: 'Done' }).click();
  assert.ok(!(await page.evaluate((c) => document.body.innerText.includes(c), code)), 'the code is gone once dismissed');
  assert.match(await page.locator('[data-testid=invitations] tbody').innerText(), new RegExp(`${escapeRe(member.email)}[\\s\\S]*pending`));
  await daemon.expect(200, 'POST', `/invitations/${code}/accept`, {}, member.token);

  // Members: the new member appears after a reload; the admin makes it admin, then user again.
  await page.reload();
  const memberRow = page.locator(`[data-testid=members] tr[data-user-id="${member.id}"]`);
  await memberRow.waitFor({ timeout: WAIT });
  const roleOf = async (userId) => (await daemon.expect(200, 'GET', `/organizations/${admin.orgId}/members`, undefined, admin.token))
    .find((m) => m.userId === userId).role;
  await page.getByLabel(`Role of ${member.email}`).selectOption('admin');
  for (let i = 0; i < 50 && (await roleOf(member.id)) !== 'admin'; i += 1) await sleep(100);
  assert.equal(await roleOf(member.id), 'admin');
  await page.getByLabel(`Role of ${member.email}`).selectOption('user');
  for (let i = 0; i < 50 && (await roleOf(member.id)) !== 'user'; i += 1) await sleep(100);
  assert.equal(await roleOf(member.id), 'user');
  // The last admin cannot step down: the API's 409 is shown and the select reads back "Admin".
  await page.getByLabel(`Role of ${admin.email}`).selectOption('user');
  await page.locator('[data-testid=members]').getByText('An organization needs at least one admin.').waitFor({ timeout: WAIT });
  await page.waitForFunction((id) => document.getElementById(id).value === 'admin', `role-${admin.id}`, { timeout: WAIT });
  assert.equal(await roleOf(admin.id), 'admin');
  await cleanPage(page, 'members', [409]);

  // Access requests (instance administrator): approve one, deny the other.
  const requests = page.locator('[data-testid=access-requests]');
  await requests.getByText(applicantA.email).waitFor({ timeout: WAIT });
  await requests.locator('#access-title').scrollIntoViewIfNeeded();
  await checkScreen(page, 'settings-access-requests');
  await requests.getByRole('button', { name: `Approve ${applicantA.email}` }).click();
  await requests.getByText(applicantA.email).waitFor({ state: 'detached', timeout: WAIT });
  await requests.getByRole('button', { name: `Deny ${applicantB.email}` }).click();
  await requests.getByText('No pending access request.').waitFor({ timeout: WAIT });
  await daemon.expect(200, 'POST', '/auth/login', { login: applicantA.username, password: applicantA.password });
  await daemon.expect(403, 'POST', '/auth/login', { login: applicantB.username, password: applicantB.password });
  await page.locator('#access-status').selectOption('rejected');
  await requests.getByText(applicantB.email).waitFor({ timeout: WAIT });
  assert.match(page.url(), /requests=rejected/);

  // API keys: a read-only key, shown once; then revoked after a confirmation.
  const keys = page.locator('[data-testid=api-keys]');
  await page.getByLabel('Key name').fill('dashboards');
  await keys.getByLabel('publish').uncheck();
  await keys.getByLabel('subscribe').uncheck();
  // The channel OTLP exports naming none go to.
  await keys.getByLabel('Default channel', { exact: true }).selectOption(String(chB.id));
  await keys.getByRole('button', { name: 'Create key' }).click();
  const newKey = (await page.locator('[data-testid=new-key] .secret-value').innerText()).trim();
  assert.match(newKey, /^aes_[A-Za-z0-9]{43}$/);
  await page.locator('[data-testid=new-key]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await checkScreen(page, 'settings-key-created');
  await page.locator('[data-testid=new-key]').getByRole('button', { name: 'Done' }).click();
  const created = (await daemon.expect(200, 'GET', '/api-keys', undefined, admin.token)).find((k) => k.name === 'dashboards');
  assert.deepEqual(created.scopes, ['read']);
  assert.equal(created.defaultChannelId, chB.id);
  // Changed in the list: the key's row picks another channel, then none.
  const rowDefault = keys.getByLabel('Default channel of dashboards');
  await rowDefault.selectOption(String(chA.id));
  await waitForDefault(created.id, chA.id);
  await rowDefault.selectOption('');
  await waitForDefault(created.id, null);
  assert.equal((await daemon.call('GET', `/event/${chB.id}/list?limit=1`, undefined, undefined, { 'X-API-Key': newKey })).status, 200);
  await keys.getByRole('button', { name: 'Revoke dashboards' }).click();
  const dialog = page.locator('dialog[data-testid=confirm][open]');
  await dialog.waitFor({ timeout: WAIT });
  assert.match(await dialog.innerText(), /Revoke the API key "dashboards"\?[\s\S]*scopes read/);
  await checkScreen(page, 'settings-confirm-revoke');
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await dialog.waitFor({ state: 'detached', timeout: WAIT }).catch(() => {});
  await keys.locator(`tr[data-key-id="${created.id}"]`).waitFor({ state: 'detached', timeout: WAIT });
  assert.equal((await daemon.call('GET', `/event/${chB.id}/list?limit=1`, undefined, undefined, { 'X-API-Key': newKey })).status, 401);

  // Environments: create, rename, delete.
  const envs = page.locator('[data-testid=environments]');
  await page.getByLabel('New environment name').fill('Staging');
  await envs.getByRole('button', { name: 'Add environment' }).click();
  await envs.locator('td.mono', { hasText: 'staging' }).waitFor({ timeout: WAIT });
  await envs.getByRole('button', { name: 'Rename Staging' }).click();
  await page.getByLabel('New name of Staging').fill('Pre-production');
  await envs.getByRole('button', { name: 'Save' }).click();
  await envs.getByText('Pre-production').waitFor({ timeout: WAIT });
  await envs.getByRole('button', { name: 'Delete environment Pre-production' }).click();
  await dialog.waitFor({ timeout: WAIT });
  assert.match(await dialog.innerText(), /Pre-production[\s\S]*slug staging/);
  await dialog.getByRole('button', { name: 'Delete environment' }).click();
  await envs.getByText('No environment yet').waitFor({ timeout: WAIT });
  assert.deepEqual((await daemon.expect(200, 'GET', '/environments', undefined, admin.token)).data, []);

  // Apps and channels: rename the app; deleting a channel says how many events go with it.
  const apps = page.locator('[data-testid=apps]');
  await apps.getByRole('button', { name: 'Rename billing-bot' }).click();
  await page.getByLabel('New name of billing-bot').fill('billing-agent');
  await apps.getByRole('button', { name: 'Save' }).click();
  await apps.getByText('billing-agent', { exact: true }).waitFor({ timeout: WAIT });
  await apps.getByRole('button', { name: 'Delete channel invoices of billing-agent' }).click();
  await dialog.waitFor({ timeout: WAIT });
  assert.match(await dialog.innerText(), /billing-agent \/ invoices[\s\S]*3 stored events/);
  await dialog.locator('#confirm-title').scrollIntoViewIfNeeded();
  await checkScreen(page, 'settings-confirm-channel');
  await dialog.getByRole('button', { name: 'Delete channel' }).click();
  await apps.locator(`li[data-channel-id="${chA.id}"]`).waitFor({ state: 'detached', timeout: WAIT });
  await daemon.expect(404, 'GET', `/channel/${chA.id}`, undefined, admin.token, { 'x-tenant-id': String(admin.orgId) });
  await apps.getByRole('button', { name: 'Delete app billing-agent' }).click();
  await dialog.waitFor({ timeout: WAIT });
  assert.match(await dialog.innerText(), /billing-agent[\s\S]*1 channel \(refunds\) and 0 stored events/);
  // By keyboard: the dialog holds the focus (on Cancel); Esc closes it and deletes nothing.
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Cancel');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: WAIT });
  await apps.locator(`li[data-app-id="${app.id}"]`).waitFor({ timeout: WAIT });
  await apps.getByRole('button', { name: 'Delete app billing-agent' }).click();
  await dialog.getByRole('button', { name: 'Delete app' }).click();
  await apps.locator(`li[data-app-id="${app.id}"]`).waitFor({ state: 'detached', timeout: WAIT });
  await daemon.expect(404, 'GET', `/channel/${chB.id}`, undefined, admin.token, { 'x-tenant-id': String(admin.orgId) });
  await cleanPage(page, 'settings');

  // What was just done here is in the audit log, newest first.
  await page.locator('nav.side').getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Resource type').fill('environment');
  await page.getByLabel('Resource type').press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('table.audit tbody tr').length === 3, null, { timeout: WAIT });
  const actions = await page.$$eval('table.audit tbody tr td:nth-child(3)', (tds) => tds.map((td) => td.textContent.trim()));
  assert.deepEqual(actions, ['environment.delete', 'environment.update', 'environment.create']);
  await context.close();
});

test('a member without the admin role sees what the API allows; another organization never appears', { timeout: 120_000 }, async () => {
  // The member joined the admin's organization with the user role in the test above;
  // when run alone, it joins here.
  const joined = (await daemon.expect(200, 'GET', `/organizations/${admin.orgId}/members`, undefined, admin.token)).some((m) => m.userId === member.id);
  if (!joined) {
    const inv = await daemon.expect(201, 'POST', `/organizations/${admin.orgId}/invitations`, { invitedEmail: member.email, desired_role: 'user' }, admin.token);
    await daemon.expect(200, 'POST', `/invitations/${inv.code}/accept`, {}, member.token);
  }
  const secretApp = `admin-only-app-${uid()}`;
  await daemon.expect(201, 'POST', '/apps', { name: secretApp }, admin.token);
  const asMember = { 'x-tenant-id': String(admin.orgId) };
  // What the API refuses a member, checked directly: the screens below must match it.
  await daemon.expect(403, 'GET', '/audit-logs', undefined, member.token, asMember);
  await daemon.expect(403, 'GET', `/organizations/${admin.orgId}/invitations`, undefined, member.token, asMember);
  await daemon.expect(403, 'PATCH', `/organizations/${admin.orgId}/members/${admin.id}`, { role: 'user' }, member.token, asMember);
  await daemon.expect(403, 'GET', '/admin/access-requests', undefined, member.token);

  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, member, `/console/audit?org=${admin.orgId}`);
  await page.getByText("You cannot see this organization's audit log").waitFor({ timeout: WAIT });
  assert.match(await page.locator('main').innerText(), /This operation needs the admin role in the organization/);
  assert.equal(await page.getByRole('button', { name: 'Verify chain' }).count(), 0);
  await checkScreen(page, 'audit-member-forbidden', [403]);

  await page.locator('nav.side').getByRole('link', { name: 'Settings' }).click();
  const members = page.locator('[data-testid=members]');
  await members.locator(`tr[data-user-id="${admin.id}"]`).waitFor({ timeout: WAIT });
  assert.equal(await members.locator('select').count(), 0, 'no role to change');
  assert.deepEqual(await members.getByRole('button').allInnerTexts(), ['Leave'], 'only leaving, oneself');
  await page.locator('[data-testid=invitations]').getByText('This operation needs the admin role in the organization.').waitFor({ timeout: WAIT });
  assert.equal(await page.getByLabel('E-mail to invite').count(), 0);
  assert.equal(await page.locator('[data-testid=access-requests]').count(), 0, 'access requests are the instance administrator\'s');
  assert.ok((await page.locator('[data-testid=apps]').innerText()).includes(secretApp), 'a member sees its organization\'s apps');
  await checkScreen(page, 'settings-member', [403]);
  await context.close();

  // Another organization: its own screens, and a deep link naming the admin's organization
  // shows its own instead; nothing of the admin's organization appears anywhere.
  const ctx2 = await browser.newContext({ viewport: VIEWPORT });
  const page2 = await consolePage(ctx2);
  await signIn(page2, other, `/console/settings?org=${admin.orgId}`);
  await page2.locator(`[data-testid=members] tr[data-user-id="${other.id}"]`).waitFor({ timeout: WAIT });
  const forbidden = [secretApp, 'Acme Agents', admin.email, member.email];
  for (const p of [`/console/settings?org=${admin.orgId}`, `/console/audit?org=${admin.orgId}`, `/console/audit?org=${admin.orgId}&entry=1`]) {
    await page2.goto(`${daemon.base}${p}`);
    await page2.locator('main .page, main .page-split').first().waitFor({ timeout: WAIT });
    await page2.locator('table.audit tbody tr, [data-testid=members] tbody tr').first().waitFor({ timeout: WAIT });
    await sleep(300);
    const text = await page2.evaluate(() => document.body.innerText + [...document.querySelectorAll('option')].map((o) => o.textContent).join(' '));
    for (const s of forbidden) assert.ok(!text.includes(s), `${p} shows ${s}`);
    assert.ok(new URL(page2.url()).searchParams.get('org') === String(other.orgId), `${p} switched to the user's own organization`);
  }
  await cleanPage(page2, 'another organization');
  await ctx2.close();
});

// ---------------------------------------------------------------- deleting an organization

// An organization of `owner` (its admin) with `memberUser` in it as `role`: {id, slug, name}.
async function orgWith(owner, name, memberUser, role = 'user') {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${uid()}`;
  const org = await daemon.expect(201, 'POST', '/organizations', { name, slug }, owner.token);
  const token = org.access_token; // acts on the new organization
  if (memberUser) {
    const inv = await daemon.expect(201, 'POST', `/organizations/${org.id}/invitations`, { invitedEmail: memberUser.email, desired_role: role }, token);
    await daemon.expect(200, 'POST', `/invitations/${inv.code}/accept`, {}, memberUser.token);
  }
  return { id: org.id, slug, name, token };
}

test('settings: an admin deletes the organization after seeing what goes and typing its slug; a member never sees the control', { timeout: 120_000 }, async () => {
  const dana = await newUser('dana');
  const doomed = await orgWith(dana, 'Doomed Co', member);
  const app = await daemon.expect(201, 'POST', '/apps', { name: 'doomed-app' }, doomed.token);
  const ch = await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'doomed-events' }, doomed.token);
  await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'doomed-quiet' }, doomed.token);
  const key = await daemon.expect(201, 'POST', '/api-keys', { name: 'doomed-key', scopes: ['publish', 'read'] }, doomed.token);
  for (let i = 0; i < 4; i += 1) await publishWithKey(key.key, { identifier: `d-${i}`, payload: { i }, channel_id: ch.id });
  const personal = (await daemon.expect(200, 'GET', `/organizations/${dana.orgId}`, undefined, dana.token)).name;

  // The member (role user) sees settings without the control.
  {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await consolePage(context);
    await signIn(page, member, `/console/settings?org=${doomed.id}`);
    await page.locator(`[data-testid=members] tr[data-user-id="${dana.id}"]`).waitFor({ timeout: WAIT });
    assert.equal(await page.locator('[data-testid=danger-zone]').count(), 0);
    assert.equal(await page.getByRole('button', { name: /Delete organization/ }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Delete organization' }).count(), 0);
    await cleanPage(page, 'settings (member)', [403]);
    await context.close();
  }

  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, dana, `/console/settings?org=${doomed.id}`);
  const zone = page.locator('[data-testid=danger-zone]');
  await zone.waitFor({ timeout: WAIT });
  await zone.getByRole('button', { name: 'Delete organization…' }).click();
  const dialog = page.locator('dialog[data-testid=delete-org][open]');
  await dialog.waitFor({ timeout: WAIT });
  const said = await dialog.innerText();
  assert.match(said, /Delete the organization "Doomed Co"\?/);
  assert.match(said, /1 app, 2 channels, 4 stored events and 1 API key/);
  assert.match(said, /1 other member loses access/);
  assert.match(said, new RegExp(`continue in ${escapeRe(personal)}`));
  const confirm = dialog.getByRole('button', { name: 'Delete this organization' });
  assert.ok(await confirm.isDisabled(), 'nothing to confirm yet');
  await dialog.getByLabel(/Type .* to confirm/).fill('doomed');
  assert.ok(await confirm.isDisabled(), 'not the slug');
  await dialog.getByLabel(/Type .* to confirm/).fill(doomed.slug);
  assert.ok(await confirm.isEnabled());
  await checkScreen(page, 'settings-delete-organization');
  // Esc cancels; nothing is deleted.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: WAIT });
  await daemon.expect(200, 'GET', `/organizations/${doomed.id}`, undefined, dana.token);

  await zone.getByRole('button', { name: 'Delete organization…' }).click();
  await dialog.getByLabel(/Type .* to confirm/).fill(doomed.slug);
  await Promise.all([page.waitForURL((u) => u.searchParams.get('deleted') === doomed.slug, { timeout: WAIT }), confirm.click()]);
  // Landed in the other organization, told what happened; the deleted one is gone everywhere.
  assert.equal(new URL(page.url()).searchParams.get('org'), String(dana.orgId));
  await page.locator('[data-testid=deleted-notice]').waitFor({ timeout: WAIT });
  await page.locator('[data-testid=org-card] h2', { hasText: personal }).waitFor({ timeout: WAIT });
  const switcher = await page.locator('#org-switch option').allInnerTexts();
  assert.ok(!switcher.includes('Doomed Co'), `switcher: ${switcher}`);
  assert.ok(switcher.includes(personal));
  await checkScreen(page, 'settings-organization-deleted');
  await daemon.expect(404, 'GET', `/organizations/${doomed.id}`, undefined, dana.token);
  await daemon.expect(404, 'GET', `/organizations/${doomed.id}/contents`, undefined, member.token);
  assert.equal((await daemon.call('GET', `/event/${ch.id}/list`, undefined, undefined, { 'X-API-Key': key.key })).status, 401);
  for (const u of [dana, member]) {
    const orgs = await daemon.expect(200, 'GET', '/users/me/organizations', undefined, u.token);
    assert.ok(!orgs.some((m) => m.organizationId === doomed.id), 'no membership left');
  }
  await cleanPage(page, 'organization deleted');
  await context.close();
});

test('settings: a refused deletion shows the problem; deleting the last organization leads to creating one', { timeout: 120_000 }, async () => {
  // Dana loses the admin role while the dialog is open: the API's 403 is shown in it.
  const erin = await newUser('erin');
  const shared = await orgWith(erin, 'Shared Co', member, 'admin');
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, erin, `/console/settings?org=${shared.id}`);
  await page.locator('[data-testid=danger-zone]').getByRole('button', { name: 'Delete organization…' }).click();
  const dialog = page.locator('dialog[data-testid=delete-org][open]');
  await dialog.getByLabel(/Type .* to confirm/).fill(shared.slug);
  await daemon.expect(200, 'PATCH', `/organizations/${shared.id}/members/${erin.id}`, { role: 'user' }, member.token, { 'x-tenant-id': String(shared.id) });
  await dialog.getByRole('button', { name: 'Delete this organization' }).click();
  await dialog.locator('.error-box', { hasText: 'This operation needs the admin role in the organization.' }).waitFor({ timeout: WAIT });
  await daemon.expect(200, 'GET', `/organizations/${shared.id}`, undefined, erin.token);
  await checkScreen(page, 'settings-delete-refused', [403]);
  await page.keyboard.press('Escape');

  // Erin's personal organization is her last once she leaves Shared Co: deleting it lands
  // on creating a new one.
  await daemon.expect(204, 'DELETE', `/organizations/${shared.id}/members/${erin.id}`, undefined, erin.token);
  await page.goto(`${daemon.base}/console/settings?org=${erin.orgId}`);
  await page.locator('[data-testid=danger-zone]').getByRole('button', { name: 'Delete organization…' }).click();
  assert.match(await dialog.innerText(), /your last organization/);
  const personalSlug = (await daemon.expect(200, 'GET', `/organizations/${erin.orgId}`, undefined, erin.token)).slug;
  await dialog.getByLabel(/Type .* to confirm/).fill(personalSlug);
  await Promise.all([page.waitForURL((u) => u.searchParams.get('deleted') === personalSlug, { timeout: WAIT }),
    dialog.getByRole('button', { name: 'Delete this organization' }).click()]);
  await page.locator('[data-testid=no-organization]').waitFor({ timeout: WAIT });
  await checkScreen(page, 'settings-no-organization');
  assert.deepEqual(await daemon.expect(200, 'GET', '/users/me/organizations', undefined, erin.token), []);
  // Every other screen says so once and leads to creating one, instead of the API's
  // "no active organization" in each of its panels.
  for (const screen of ['live', 'traces', 'delivery', 'audit']) {
    await page.goto(`${daemon.base}/console/${screen}`);
    await page.locator('[data-testid=no-organization-screen]').waitFor({ timeout: WAIT });
    assert.ok(!(await page.locator('main').innerText()).includes('x-tenant-id'), `${screen}: no raw API error`);
  }
  await checkScreen(page, 'no-organization-audit', [403]);
  await page.getByRole('link', { name: 'Create an organization' }).click();
  await page.locator('[data-testid=no-organization]').waitFor({ timeout: WAIT });
  await page.getByLabel('New organization name').fill('Fresh Start');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await page.locator('[data-testid=org-card] h2', { hasText: 'Fresh Start' }).waitFor({ timeout: WAIT });
  await cleanPage(page, 'last organization', [403]);
  await context.close();
});
