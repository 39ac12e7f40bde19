// What people open the console for, in Debian's headless Chromium against the real daemon
// (issue 27), each check one that failed before its fix:
//
//   - the trace page's tokens and cost are the trace summary's (the daemon's prices), and
//     the traces list and the trace page show the same duration
//   - an LLM span's panel shows the call as a conversation (messages by role, tool calls
//     with their arguments, tool results, the output), from every convention the daemon
//     normalises and from what the README's tour sends; an error's message comes first;
//     raw JSON sits behind a toggle; long content collapses
//   - a filtered live tail first shows the newest stored matches, says how many older
//     ones exist and loads them, then follows live with "0 missed"; so does one filtered
//     by end user (the User field)
//   - analytics shows the latency percentiles of LLM calls and of tool calls apart, the
//     numbers GET /analytics/overview gives (latencyByKind)
//   - the shell is the viewport: on settings the document is exactly as tall as the
//     window, and a section link scrolls only the content pane
//   - at 390×844 no screen overflows horizontally and the navigation sits behind a menu
//   - a session of three traces is replayed in order; end users are listed
//   - axe-core clean in light, dark and at phone size (both themes); screenshots of every
//     screen in each (AEV_SCREENSHOT_DIR: content-<screen>-<light|dark|phone|phone-dark>.png)
//
//   AEV_DAEMON_BIN=build/daemon/agent-eventsd node --test tests/browser/console-content.test.mjs
// (AEV_CONSOLE_DIR=daemon/console serves the console's files from the source tree.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  axeCheck, axeSource, cleanPage, consoleDaemon, consolePage, daemonBin, launchChromium, newUser, shot, signIn as signInTo,
  sleep, PHONE, stopDaemon, uid, VIEWPORT, WAIT,
} from './support.mjs';
import { ms, usd } from '../../daemon/console/js/format.js';

let daemon;
let browser;
let user;
let channelId;
let key;
const run = uid();
const tourTrace = `tour-${run}`;
const convTrace = `conv-${run}`;
const sessionId = `sess-${run}`;
const endUser = `maria-${run}`;
const sessionTraces = [0, 1, 2].map((i) => `turn${i}-${run}`);
const t0 = Date.now() - 1_800_000;
const at = (offset) => new Date(t0 + offset).toISOString();

const publish = (body) => daemon.expect(201, 'POST', '/event', { channel_id: channelId, payload: {}, ...body }, key);
const publishAll = async (events) => {
  const r = await daemon.expect(200, 'POST', '/events/batch', { events: events.map((e) => ({ channel_id: channelId, payload: {}, ...e })) }, user.token);
  assert.equal(r.failed, 0, JSON.stringify(r).slice(0, 600));
};
const signIn = (page, where) => signInTo(page, daemon, user, where, WAIT);

// One LLM call per convention; each input and output carries a marker to find on screen.
const CONVENTIONS = [
  ['normalised payload.messages', { payload: { messages: { input: [{ role: 'system', content: 'SYS-native' }, { role: 'user', content: 'IN-native' }],
    output: [{ role: 'assistant', content: 'OUT-native' }] } } }],
  ['OpenTelemetry GenAI (gen_ai.input.messages) with a tool call and its result', { metadata: {
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'IN-genai' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_w1', response: 'TOOLRESULT-genai 18C' }] }]),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'OUT-genai' }] }]) } }],
  ['OpenInference (llm.*_messages) with a tool call', { metadata: {
    'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': 'IN-openinference',
    'llm.output_messages.0.message.role': 'assistant',
    'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'call_oi',
    'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'lookup_order',
    'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"order":"OUT-openinference"}' } }],
  ['OpenLLMetry (gen_ai.prompt.N / gen_ai.completion.N)', { metadata: {
    'gen_ai.prompt.0.role': 'user', 'gen_ai.prompt.0.content': 'IN-openllmetry',
    'gen_ai.completion.0.role': 'assistant', 'gen_ai.completion.0.content': 'OUT-openllmetry' } }],
  ['Langfuse (langfuse.observation.input / output)', { metadata: {
    'langfuse.observation.input': JSON.stringify([{ role: 'user', content: 'IN-langfuse' }]),
    'langfuse.observation.output': JSON.stringify({ role: 'assistant', content: 'OUT-langfuse' }) } }],
  ['Vercel AI SDK (ai.prompt.messages, ai.response.text)', { metadata: {
    'ai.prompt.messages': JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'IN-aisdk' }] }]),
    'ai.response.text': 'OUT-aisdk' } }],
  ["the README tour's {role, text}", { payload: { role: 'assistant', text: 'OUT-tour' } }],
  ['plain input / output strings', { payload: { input: 'IN-plain', output: 'OUT-plain' } }],
];

before(async () => {
  assert.ok(daemonBin, 'AEV_DAEMON_BIN must name the built agent-eventsd');
  daemon = consoleDaemon();
  await daemon.start();
  browser = await launchChromium();
  user = await newUser(daemon, 'content');
  const app = await daemon.expect(201, 'POST', '/apps', { name: 'desk' }, user.token);
  channelId = (await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'prod' }, user.token)).id;
  key = (await daemon.expect(201, 'POST', '/api-keys', { name: 'k', scopes: ['publish', 'read'] }, user.token)).key;

  // The README's tour: no cost sent, so the daemon prices it from its list; the last event
  // lasts 3 s past its timestamp (a trace ends at its last event's end).
  await publishAll([
    { identifier: 'plan', eventType: 'agent.message', traceId: tourTrace, spanId: 'plan', timestamp: at(0),
      payload: { role: 'assistant', text: 'Planning the reply' }, metadata: { model: 'gpt-4o', duration_ms: 800, usage: { input_tokens: 812, output_tokens: 64 } } },
    { identifier: 'reply', eventType: 'agent.message', traceId: tourTrace, spanId: 'reply', timestamp: at(1_000),
      payload: { role: 'assistant', text: 'hello' }, metadata: { model: 'gpt-4o', duration_ms: 3_000, usage: { input_tokens: 1200, output_tokens: 300 } } },
  ]);

  // One span per convention, then an error and a long prompt.
  await publishAll([
    ...CONVENTIONS.map(([, body], i) => ({ identifier: `llm-${i}`, eventType: 'agent.message', traceId: convTrace, spanId: `c${i}`,
      timestamp: at(10_000 + i * 100), ...body, metadata: { model: 'gpt-4o-mini', temperature: 0.2, duration_ms: 50, finish_reason: 'stop',
        usage: { input_tokens: 100, output_tokens: 10 }, ...(body.metadata || {}) } })),
    { identifier: 'llm-error', eventType: 'agent.error', traceId: convTrace, spanId: 'cerr', timestamp: at(11_000),
      payload: { message: 'ERRMSG 429 rate limit reached', messages: { input: [{ role: 'user', content: 'IN-error' }], output: [] } },
      metadata: { model: 'gpt-4o', status: 'error', error_type: 'RateLimitError' } },
    { identifier: 'llm-long', eventType: 'agent.message', traceId: convTrace, spanId: 'clong', timestamp: at(11_100),
      payload: { messages: { input: [{ role: 'user', content: `LONGSTART ${'lorem ipsum '.repeat(500)} LONGEND` }], output: [{ role: 'assistant', content: 'ok' }] } } },
  ]);

  // A session of three traces, published newest first: the replay orders them by time.
  for (const i of [2, 0, 1]) {
    await publish({ identifier: 'answer', eventType: 'agent.message', traceId: sessionTraces[i], timestamp: at(20_000 + i * 60_000),
      payload: { messages: { input: [{ role: 'user', content: `QUESTION-${i}` }], output: [{ role: 'assistant', content: `ANSWER-${i}` }] } },
      metadata: { session: sessionId, user: endUser, model: 'gpt-4o-mini', usage: { input_tokens: 50, output_tokens: 20 } } });
  }
});

after(async () => {
  if (browser) await browser.close().catch(() => {});
  if (daemon) await stopDaemon(daemon);
});

const waitText = (page, selector, text) => page.locator(selector).filter({ hasText: text }).first().waitFor({ timeout: WAIT });

test("the trace page shows the daemon's tokens and cost, and the list's duration", { timeout: 120_000 }, async () => {
  const summary = await daemon.expect(200, 'GET', `/traces/${tourTrace}/summary`, undefined, user.token);
  assert.ok(summary.costUsd > 0, 'the daemon priced the tour trace');
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, `/console/traces?org=${user.orgId}`);
  const row = page.locator(`tr[data-trace-id="${tourTrace}"]`);
  await row.waitFor({ timeout: WAIT });
  const listDuration = (await row.locator('[data-testid=trace-duration]').innerText()).trim();
  assert.equal((await row.locator('[data-testid=trace-cost]').innerText()).trim(), usd(summary.costUsd));
  await row.click();
  await page.locator('[data-testid=trace-cost]').waitFor({ timeout: WAIT });
  assert.equal((await page.locator('[data-testid=trace-cost]').innerText()).trim(), usd(summary.costUsd), 'trace page cost = summary cost');
  assert.equal((await page.locator('[data-testid=trace-tokens]').innerText()).trim(), summary.totalTokens.toLocaleString('en-US'));
  // Each span's cost is its event's, as the daemon priced it (telemetry), never re-added here.
  const events = await daemon.expect(200, 'GET', `/traces/${tourTrace}/events`, undefined, user.token);
  for (const e of events) {
    assert.ok(e.telemetry && e.telemetry.costUsd > 0, `event ${e.identifier} carries the daemon's telemetry`);
    const cell = page.locator(`.wf-row[data-key="s:${e.spanId}"] [data-testid=span-cost]`);
    assert.equal((await cell.innerText()).trim(), usd(e.telemetry.costUsd), `span ${e.spanId}: the daemon's cost`);
  }
  const pageDuration = (await page.locator('[data-testid=trace-duration]').innerText()).trim();
  assert.equal(pageDuration, listDuration, 'the list and the trace page show the same duration');
  const expected = summary.durationMs ?? (Date.parse(summary.endTime) - Date.parse(summary.startTime));
  assert.equal(pageDuration, ms(expected), "the daemon's duration");
  await cleanPage(page, 'trace cost');
  await context.close();
});

test("an LLM span's panel renders the conversation from every convention", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, `/console/traces/${convTrace}?org=${user.orgId}`);
  await page.getByRole('treegrid').waitFor({ timeout: WAIT });
  for (const [i, [name]] of CONVENTIONS.entries()) {
    await page.goto(`${daemon.base}/console/traces/${convTrace}?org=${user.orgId}&span=c${i}`);
    const panel = page.locator('[data-testid=span-panel]');
    await panel.locator('[data-testid=conversation]').waitFor({ timeout: WAIT });
    const text = await panel.innerText();
    const marker = name.includes('tour') ? 'tour' : /GenAI/.test(name) ? 'genai' : /OpenInference/.test(name) ? 'openinference'
      : /OpenLLMetry/.test(name) ? 'openllmetry' : /Langfuse/.test(name) ? 'langfuse' : /AI SDK/.test(name) ? 'aisdk'
        : /plain/.test(name) ? 'plain' : 'native';
    if (marker !== 'tour') {
      const asked = panel.locator('.msg[data-role=user]').filter({ hasText: `IN-${marker}` });
      assert.equal(await asked.count(), 1, `${name}: the user message by role`);
    }
    assert.match(text, new RegExp(`OUT-${marker}`), `${name}: the output`);
    const output = panel.locator('.msg[data-role=assistant]').filter({ hasText: `OUT-${marker}` });
    assert.ok(await output.count() >= 1, `${name}: the output as the assistant's message`);
    if (marker === 'native') assert.equal(await panel.locator('.msg[data-role=system]').filter({ hasText: 'SYS-native' }).count(), 1, 'system message');
    if (marker === 'genai') {
      const call = panel.locator('[data-testid=tool-call]').filter({ hasText: 'get_weather' });
      assert.equal(await call.count(), 1, 'the tool call');
      assert.match(await call.innerText(), /"city": "Paris"/, 'its arguments, pretty');
      assert.equal(await panel.locator('.msg[data-role=tool]').filter({ hasText: 'TOOLRESULT-genai' }).count(), 1, 'the tool result');
    }
    if (marker === 'openinference') assert.match(await panel.locator('[data-testid=tool-call]').innerText(), /lookup_order[\s\S]*OUT-openinference/);
    // The call's facts follow the conversation; raw JSON only on request.
    const facts = await panel.locator('[data-testid=call-facts]').innerText();
    assert.match(facts, /Model\s+gpt-4o-mini/, `${name}: model`);
    assert.match(facts, /Temperature\s+0\.2/, `${name}: parameters`);
    assert.match(facts, /Latency\s+50 ms/, `${name}: latency`);
    assert.match(facts, /Finish reason\s+stop/, `${name}: finish reason`);
    assert.equal(await panel.locator('pre.json').count(), 0, 'raw JSON hidden');
  }
  // Raw JSON behind its toggle.
  await page.getByRole('button', { name: 'Raw JSON' }).first().click();
  await page.locator('[data-testid=span-panel] pre.json').waitFor();

  // An error shows its message first, above the conversation.
  await page.goto(`${daemon.base}/console/traces/${convTrace}?org=${user.orgId}&span=cerr`);
  const err = page.locator('[data-testid=event-error]');
  await err.waitFor({ timeout: WAIT });
  assert.match(await err.innerText(), /ERRMSG 429 rate limit reached/);
  const order = await page.locator('[data-testid=span-panel]').evaluate((p) => {
    const e = p.querySelector('[data-testid=event-error]');
    const c = p.querySelector('[data-testid=conversation]');
    return Boolean(e.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  assert.ok(order, 'the error message before the conversation');

  // Long content collapses, and opens on request.
  await page.goto(`${daemon.base}/console/traces/${convTrace}?org=${user.orgId}&span=clong`);
  const msg = page.locator('.msg[data-role=user]');
  await msg.waitFor({ timeout: WAIT });
  assert.doesNotMatch(await msg.innerText(), /LONGEND/, 'collapsed');
  await msg.getByTestId('show-all').click();
  assert.match(await msg.innerText(), /LONGEND/, 'expanded');
  await cleanPage(page, 'conversations');
  await context.close();
});

test('a filtered live tail shows the newest stored matches, loads older ones, then follows live with 0 missed', { timeout: 180_000 }, async () => {
  // 55 matches among 150 others, then 60 others after them: the 50 newest events of the
  // channel hold no match at all.
  const type = 'agent.handoff'; // nothing else in this channel is one
  const filler = (n, base) => Array.from({ length: n }, (_, i) => ({ identifier: `fill-${base + i}`, eventType: 'app.log' }));
  await publishAll(filler(150, 0));
  await publishAll(Array.from({ length: 55 }, (_, i) => ({ identifier: `m-${i}`, eventType: type, payload: { seq: i } })));
  await publishAll(filler(60, 150));
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, `/console/live?org=${user.orgId}&channel=${channelId}&type=${encodeURIComponent(type)}`);
  await page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: WAIT });
  const rows = page.locator('table.live tbody tr');
  await page.waitForFunction(() => document.querySelectorAll('table.live tbody tr').length >= 50, null, { timeout: WAIT });
  assert.equal(await rows.count(), 50, 'the newest 50 matches');
  const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('.c-ident').textContent));
  assert.equal(ids[0], 'm-54');
  assert.equal(ids[49], 'm-5');
  const older = page.locator('[data-testid=older-matches]');
  assert.match(await older.innerText(), /5 older matches — load more/);
  await older.getByRole('button').click();
  await page.waitForFunction(() => document.querySelectorAll('table.live tbody tr').length === 55, null, { timeout: WAIT });
  assert.equal(await older.count(), 0, 'nothing older left');
  // Live: a new match arrives at the top, an event of another type does not.
  await publish({ identifier: 'm-live', eventType: type });
  await publish({ identifier: 'fill-live', eventType: 'app.log' });
  await waitText(page, 'table.live tbody tr:first-child', 'm-live');
  await sleep(300);
  assert.equal(await rows.count(), 56);
  assert.equal(await page.locator('[data-testid=connection]').getAttribute('data-missed'), '0');
  await cleanPage(page, 'filtered live tail');
  await context.close();
});

test('the live tail filtered by end user: the User field shows that user\'s stored events, then follows live', { timeout: 120_000 }, async () => {
  // 8 events of the user among 70 of another user and of none, then 60 more without one:
  // none of the user's is among the channel's newest 50.
  const who = `tail-${run}`;
  const other = `other-${run}`;
  await publishAll(Array.from({ length: 70 }, (_, i) => ({ identifier: `u-other-${i}`, eventType: 'agent.message',
    metadata: i % 2 ? { user: other } : {} })));
  await publishAll(Array.from({ length: 8 }, (_, i) => ({ identifier: `u-mine-${i}`, eventType: 'agent.message', metadata: { user: who } })));
  await publishAll(Array.from({ length: 60 }, (_, i) => ({ identifier: `u-after-${i}`, eventType: 'app.log' })));
  const listed = await daemon.expect(200, 'GET', `/event/${channelId}/list?user=${encodeURIComponent(who)}&limit=50`, undefined, key);
  assert.equal(listed.meta.total, 8);

  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, `/console/live?org=${user.orgId}&channel=${channelId}`);
  await page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: WAIT });
  await page.locator('#f-user').fill(who);
  await page.locator('#f-user').press('Enter');
  await page.waitForURL((u) => u.searchParams.get('user') === who, { timeout: WAIT });
  const rows = page.locator('table.live tbody tr');
  await page.waitForFunction(() => [...document.querySelectorAll('table.live tbody tr .c-ident')].every((td) => td.textContent.startsWith('u-mine-'))
    && document.querySelectorAll('table.live tbody tr').length === 8, null, { timeout: WAIT });
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('.c-ident').textContent)),
    listed.data.map((e) => e.identifier), 'the same events, in the same order, as GET /event/{channel}/list?user=');
  await page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: WAIT });
  // Live: the user's new event arrives at the top; another user's does not.
  await publish({ identifier: 'u-mine-live', eventType: 'agent.message', metadata: { user: who } });
  await publish({ identifier: 'u-other-live', eventType: 'agent.message', metadata: { user: other } });
  await waitText(page, 'table.live tbody tr:first-child', 'u-mine-live');
  await sleep(300);
  assert.equal(await rows.count(), 9);
  assert.equal(await page.locator('table.live tbody tr', { hasText: 'u-other-live' }).count(), 0);
  assert.equal(await page.locator('[data-testid=connection]').getAttribute('data-missed'), '0');
  await cleanPage(page, 'live tail by user');
  await context.close();
});

test('analytics shows the latency of LLM calls and of tool calls apart, as GET /analytics/overview gives them', { timeout: 120_000 }, async () => {
  // LLM calls and tool calls of very different durations, told apart by their kind.
  const llm = [900, 1_400, 2_100, 2_600, 4_800];
  const tool = [35, 60, 90, 240];
  await publishAll([
    ...llm.map((d, i) => ({ identifier: `lat-llm-${i}`, eventType: 'agent.message', timestamp: at(40_000 + i * 100),
      metadata: { semantic_kind: 'llm', model: 'gpt-4o-mini', duration_ms: d } })),
    ...tool.map((d, i) => ({ identifier: `lat-tool-${i}`, eventType: 'agent.tool_call.end', timestamp: at(41_000 + i * 100),
      payload: { tool: 'search' }, metadata: { semantic_kind: 'tool', duration_ms: d } })),
  ]);
  const until = new Date();
  const overview = await daemon.expect(200, 'GET', `/analytics/overview?since=${new Date(until - 86400e3).toISOString()}`
    + `&until=${until.toISOString()}&interval=hour`, undefined, key);
  const byKind = overview.latencyByKind;
  assert.equal(byKind.llm.count, llm.length, JSON.stringify(byKind));
  assert.equal(byKind.tool.count, tool.length, JSON.stringify(byKind));
  assert.ok(byKind.llm.p50 > byKind.tool.p95, 'two populations, not one mixed');

  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, `/console/analytics?org=${user.orgId}&range=24h`);
  const table = page.locator('[data-testid=latency-by-kind]');
  await table.waitFor({ timeout: WAIT });
  const cells = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent.trim())));
  assert.deepEqual(cells, [
    ['LLM calls', ms(byKind.llm.p50), ms(byKind.llm.p95), ms(byKind.llm.p99)],
    ['Tool calls', ms(byKind.tool.p50), ms(byKind.tool.p95), ms(byKind.tool.p99)],
  ]);
  const tile = async (label) => page.locator('.tile', { has: page.locator('.tile-label', { hasText: label }) }).innerText();
  assert.match(await tile('LLM call p50'), new RegExp(`${ms(byKind.llm.p50)}[\\s\\S]*p95 ${ms(byKind.llm.p95)}`));
  assert.match(await tile('Tool call p50'), new RegExp(`${ms(byKind.tool.p50)}[\\s\\S]*p95 ${ms(byKind.tool.p95)}`));
  await cleanPage(page, 'analytics latency by kind');
  await context.close();
});

test('the shell is the viewport: settings scroll only the content pane', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await consolePage(context);
  await signIn(page, `/console/settings?org=${user.orgId}`);
  await page.getByRole('heading', { name: 'API keys' }).waitFor({ timeout: WAIT });
  await sleep(300);
  const size = await page.evaluate(() => ({ doc: document.documentElement.scrollHeight, body: document.body.scrollHeight, view: window.innerHeight,
    pane: document.querySelector('main').scrollHeight, paneView: document.querySelector('main').clientHeight }));
  assert.equal(size.doc, size.view, 'the document is as tall as the window');
  assert.equal(size.body, size.view);
  assert.ok(size.pane > size.paneView, 'settings are longer than the window: the pane scrolls');
  await page.locator('.section-nav').getByRole('link', { name: 'Environments' }).click();
  await sleep(300);
  const after = await page.evaluate(() => ({ scrollY: window.scrollY, navTop: document.querySelector('nav.side').getBoundingClientRect().top,
    pane: document.querySelector('main').scrollTop }));
  assert.deepEqual([after.scrollY, after.navTop], [0, 0], 'the window did not scroll; the navigation stayed');
  assert.ok(after.pane > 0, 'the content pane scrolled to the section');
  await context.close();
});

// Every screen: [name, path, ready selector].
const screens = () => [
  ['live', `/console/live?org=${user.orgId}&channel=${channelId}`, '[data-testid=connection][data-state=live]'],
  ['traces', `/console/traces?org=${user.orgId}`, 'tr[data-trace-id]'],
  ['trace', `/console/traces/${convTrace}?org=${user.orgId}&span=c1`, '[data-testid=conversation]'],
  ['sessions', `/console/sessions?org=${user.orgId}`, 'tr[data-session-id]'],
  ['session', `/console/sessions/${sessionId}?org=${user.orgId}`, '[data-testid=session-turn]'],
  ['users', `/console/users?org=${user.orgId}`, 'tr[data-user-id]'],
  ['analytics', `/console/analytics?org=${user.orgId}`, '[data-testid=breakdown-table]'],
  ['delivery', `/console/delivery?org=${user.orgId}`, 'main h1'],
  ['moderation', `/console/moderation?org=${user.orgId}`, 'main h1'],
  ['spend', `/console/spend?org=${user.orgId}`, 'main h1'],
  ['alerts', `/console/alerts?org=${user.orgId}`, 'main h1'],
  ['audit', `/console/audit?org=${user.orgId}`, 'main h1'],
  ['settings', `/console/settings?org=${user.orgId}`, 'text=API keys'],
];

test('at 390×844 nothing overflows horizontally and the navigation is behind a menu button', { timeout: 240_000 }, async () => {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await consolePage(context);
  await signIn(page, `/console/traces?org=${user.orgId}`);
  for (const [name, path, ready] of screens()) {
    await page.goto(`${daemon.base}${path}`);
    await page.locator(ready).first().waitFor({ timeout: WAIT });
    await sleep(300);
    const m = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth,
      pane: document.querySelector('main').scrollWidth, paneView: document.querySelector('main').clientWidth }));
    assert.ok(m.doc <= m.view, `${name}: the document is ${m.doc} px wide in a ${m.view} px window`);
    assert.ok(m.pane <= m.paneView, `${name}: the content is ${m.pane} px wide in a ${m.paneView} px pane`);
    assert.equal(await page.locator('nav.side').isVisible(), false, `${name}: the navigation is collapsed`);
    assert.equal(await page.getByTestId('menu-button').isVisible(), true, `${name}: a menu button`);
  }
  // The menu opens the navigation, and a link closes it again.
  const button = page.getByTestId('menu-button');
  await button.click();
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  await page.locator('nav.side').getByRole('link', { name: 'Traces' }).click();
  await page.locator('tr[data-trace-id]').first().waitFor({ timeout: WAIT });
  assert.equal(await page.locator('nav.side').isVisible(), false, 'a navigation closes the menu');
  // The key columns stay; the others move into the row.
  const head = await page.locator('table[aria-label=Traces] thead th:visible').allInnerTexts();
  assert.deepEqual(head.map((h) => h.replace(/[▲▼]/g, '').trim().toLowerCase()), ['trace', 'started', 'errors', 'cost']);
  assert.match(await page.locator(`tr[data-trace-id="${tourTrace}"] [data-testid=row-more]`).innerText(), /events/);
  await cleanPage(page, 'phone');
  await context.close();
});

test('a session of three traces is replayed in order; end users list what each costs', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, `/console/sessions?org=${user.orgId}`);
  const row = page.locator(`tr[data-session-id="${sessionId}"]`);
  await row.waitFor({ timeout: WAIT });
  assert.match(await row.innerText(), new RegExp(`\\b3\\b[\\s\\S]*${endUser}`));
  await row.click();
  await page.locator('[data-testid=session-turn]').first().waitFor({ timeout: WAIT });
  const turns = await page.locator('[data-testid=session-turn]').evaluateAll((els) => els.map((el) => ({
    trace: el.dataset.traceId, user: el.querySelector('[data-role=user]')?.textContent || '', answer: el.querySelector('[data-role=assistant]')?.textContent || '',
  })));
  assert.deepEqual(turns.map((t) => t.trace), sessionTraces, 'oldest first');
  turns.forEach((t, i) => {
    assert.match(t.user, new RegExp(`QUESTION-${i}`));
    assert.match(t.answer, new RegExp(`ANSWER-${i}`));
  });
  // A turn opens its trace.
  await page.locator('[data-testid=session-turn]').nth(1).getByRole('link').first().click();
  await page.waitForURL(new RegExp(`/console/traces/${sessionTraces[1]}`));

  await page.goto(`${daemon.base}/console/users?org=${user.orgId}`);
  const u = page.locator(`tr[data-user-id="${endUser}"]`);
  await u.waitFor({ timeout: WAIT });
  assert.match(await u.innerText(), /\b3\b/);
  await u.click();
  await page.waitForURL(/\/console\/traces\?.*user=/);
  await page.locator(`tr[data-trace-id="${sessionTraces[0]}"]`).waitFor({ timeout: WAIT });
  assert.equal(await page.locator('tr[data-trace-id]').count(), 3, "the traces list filtered by the user: the user's three");
  await cleanPage(page, 'sessions and end users');
  await context.close();
});

test('every screen: axe-core clean in light, dark and phone (light and dark); screenshots of each', { timeout: 300_000 }, async () => {
  for (const [label, options] of [['light', { viewport: VIEWPORT, colorScheme: 'light' }], ['dark', { viewport: VIEWPORT, colorScheme: 'dark' }],
    ['phone', { viewport: PHONE, colorScheme: 'light', isMobile: true, hasTouch: true }],
    ['phone-dark', { viewport: PHONE, colorScheme: 'dark', isMobile: true, hasTouch: true }]]) {
    const context = await browser.newContext({ ...options, bypassCSP: true });
    const page = await consolePage(context);
    await page.goto(`${daemon.base}/console/`);
    await page.getByLabel('E-mail or username').waitFor({ timeout: WAIT });
    await axeCheck(page, `sign-in (${label})`, axeSource());
    await shot(page, `content-login-${label}`);
    await signIn(page, `/console/traces?org=${user.orgId}`);
    for (const [name, path, ready] of screens()) {
      await page.goto(`${daemon.base}${path}`);
      await page.locator(ready).first().waitFor({ timeout: WAIT });
      await sleep(300);
      await axeCheck(page, `${name} (${label})`, axeSource());
      await shot(page, `content-${name}-${label}`);
    }
    if (label.startsWith('phone')) {
      await page.getByTestId('menu-button').click();
      await axeCheck(page, `navigation menu (${label})`, axeSource());
      await shot(page, `content-menu-${label}`);
    }
    await context.close();
  }
});
