// Links between a trace's steps and the filters of the sessions and end-users lists, in
// Debian's headless Chromium against the real daemon; every expectation is read from the
// API, never written here:
//
//   - an LLM call that asked for two tools, one answered by a run and one not: its panel
//     lists both requests (name and call id) as GET /traces/{id}/events's
//     `telemetry.toolCalls` gives them; the answered one links to its run (a click selects
//     that span, in the URL, with its collapsed parent opened and its row focused), the
//     other says "not answered"; the run's panel names the call that asked for it
//     (`telemetry.requestedBy`), Enter on that link goes back to it, and Back returns
//   - sessions and end users filtered by model, environment and tag (key=value), alone and
//     together: the rows are GET /sessions's and GET /end-users's with the same query, the
//     filters are in the URL (a reload shows the same rows), a tag that is not key=value is
//     explained and not sent, and a user's traces and sessions open with the same filters
//   - no CSP violation or console error; axe-core finds nothing serious or critical;
//     screenshots at desktop, dark and phone size (AEV_SCREENSHOT_DIR: links-<screen>-<desktop|dark|phone>.png)
//
//   AEV_DAEMON_BIN=build/daemon/agent-eventsd node --test tests/browser/console-links.test.mjs
// (AEV_CONSOLE_DIR=daemon/console serves the console's files from the source tree.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  axeCheck, axeSource, cleanPage, consoleDaemon, consolePage, daemonBin, launchChromium, newUser, shot, signIn as signInTo,
  PHONE, stopDaemon, uid, VIEWPORT, WAIT,
} from './support.mjs';

let daemon;
let browser;
let user;
let channelId;
const run = uid();
const toolTrace = `tools-${run}`;
const callAnswered = `call-w-${run}`;
const callUnanswered = `call-d-${run}`;
const t0 = Date.now() - 600_000;
const at = (offset) => new Date(t0 + offset).toISOString();

const publishAll = async (events) => {
  const r = await daemon.expect(200, 'POST', '/events/batch', { events: events.map((e) => ({ channel_id: channelId, payload: {}, ...e })) }, user.token);
  assert.equal(r.failed, 0, JSON.stringify(r.results.filter((x) => !x.id)));
};
const signIn = (page, where) => signInTo(page, daemon, user, where, WAIT);
const get = (path, query = {}) => {
  const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));
  return daemon.expect(200, 'GET', `${path}${q.size ? `?${q}` : ''}`, undefined, user.token);
};

// Sessions of one end user each (two for maria), told apart by model, environment and tag.
const SESSIONS = [
  { id: `s-a-${run}`, user: `maria-${run}`, traces: [{ model: 'gpt-4o', environment: 'staging', tags: { team: 'search' } }] },
  { id: `s-b-${run}`, user: `li-${run}`, traces: [{ model: 'claude-sonnet-4', environment: 'staging', tags: { team: 'search' } }] },
  { id: `s-c-${run}`, user: `ana-${run}`, traces: [{ model: 'gpt-4o', environment: 'production', tags: { team: 'billing' } }] },
  { id: `s-d-${run}`, user: `maria-${run}`, traces: [{ model: 'claude-sonnet-4', environment: 'production', tags: { team: 'billing' } },
    { model: 'gpt-4o', environment: 'production', tags: { team: 'search' } }] },
  { id: `s-e-${run}`, user: `omar-${run}`, traces: [{ model: 'gpt-4o-mini', environment: 'staging', tags: { team: 'ads' } }] },
];

before(async () => {
  assert.ok(daemonBin, 'AEV_DAEMON_BIN must name the built agent-eventsd');
  daemon = consoleDaemon();
  await daemon.start();
  browser = await launchChromium();
  user = await newUser(daemon, 'links');
  const app = await daemon.expect(201, 'POST', '/apps', { name: 'desk' }, user.token);
  channelId = (await daemon.expect(201, 'POST', `/apps/${app.id}/channels`, { name: 'prod' }, user.token)).id;
  // One environment the organization knows (filtered by its slug); "production" is only text on events.
  await daemon.expect(201, 'POST', '/environments', { name: 'Staging', slug: 'staging' }, user.token);

  // An agent whose LLM call asks for two tools; a run under another step answers the first
  // (its start and end name the call id), nothing answers the second.
  await publishAll([
    { identifier: 'support-agent', eventType: 'agent.start', traceId: toolTrace, spanId: 'agent', timestamp: at(0), metadata: { duration_ms: 4_000 } },
    { identifier: 'plan-reply', eventType: 'agent.message', traceId: toolTrace, spanId: 'llm', parentSpanId: 'agent', timestamp: at(100),
      payload: { messages: { input: [{ role: 'user', content: 'Weather in Paris, and the refund policy?' }], output: [] } },
      metadata: { model: 'gpt-4o', duration_ms: 600, usage: { input_tokens: 120, output_tokens: 30 },
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [
          { type: 'tool_call', id: callAnswered, name: 'get_weather', arguments: { city: 'Paris' } },
          { type: 'tool_call', id: callUnanswered, name: 'search_docs', arguments: { query: 'refund policy' } }] }]) } },
    { identifier: 'tools', eventType: 'app.span', traceId: toolTrace, spanId: 'step', parentSpanId: 'agent', timestamp: at(800), metadata: { duration_ms: 900 } },
    { identifier: 'get_weather', eventType: 'agent.tool_call.start', traceId: toolTrace, spanId: 'run-w', parentSpanId: 'step', timestamp: at(900),
      payload: { tool: 'get_weather', arguments: { city: 'Paris' } }, metadata: { tool: 'get_weather', tool_call_id: callAnswered } },
    { identifier: 'get_weather', eventType: 'agent.tool_call.end', traceId: toolTrace, spanId: 'run-w', parentSpanId: 'step', timestamp: at(1_400),
      payload: { tool: 'get_weather', result: '18 °C, clear' }, metadata: { tool: 'get_weather', tool_call_id: callAnswered } },
  ]);

  let n = 0;
  for (const s of SESSIONS) {
    for (const [i, t] of s.traces.entries()) {
      n += 1;
      await publishAll([{ identifier: 'answer', eventType: 'agent.message', traceId: `${s.id}-t${i}`, timestamp: at(10_000 + n * 1_000),
        payload: { messages: { input: [{ role: 'user', content: `question ${n}` }], output: [{ role: 'assistant', content: `answer ${n}` }] } },
        metadata: { session: s.id, user: s.user, model: t.model, environment: t.environment, tags: t.tags,
          usage: { input_tokens: 10 * n, output_tokens: n } } }]);
    }
  }
});

after(async () => {
  if (browser) await browser.close().catch(() => {});
  if (daemon) await stopDaemon(daemon);
});

// axe-core on `where` once `ready` is there, in a context of its own (injecting axe needs
// the CSP bypassed, so the CSP checks stay in the contexts that do not).
// `name`: a screenshot's, when one is wanted.
async function axeAt(where, ready, what, { colorScheme = 'light', name = '' } = {}) {
  const context = await browser.newContext({ viewport: VIEWPORT, bypassCSP: true, colorScheme });
  const page = await consolePage(context);
  await signIn(page, where);
  await page.locator(ready).first().waitFor({ timeout: WAIT });
  await axeCheck(page, `${what} (${colorScheme})`, axeSource());
  if (name) await shot(page, name);
  await context.close();
}

// The span a trace's event belongs to, and that span's name as the waterfall shows it (its
// first event's identifier).
function spanOf(events, eventId) {
  const e = events.find((x) => String(x.id) === String(eventId));
  assert.ok(e, `event ${eventId} is in the trace`);
  const first = events.filter((x) => x.spanId === e.spanId).sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || a.id - b.id)[0];
  return { spanId: e.spanId, name: first.identifier };
}

test("an LLM call's tool calls link to the runs that answered them, and a run to the call that asked", { timeout: 120_000 }, async () => {
  // What the API says first: the links exist.
  const events = await get(`/traces/${toolTrace}/events`);
  const llm = events.find((e) => Array.isArray(e.telemetry?.toolCalls) && e.telemetry.toolCalls.length);
  assert.ok(llm, `an event with telemetry.toolCalls: ${JSON.stringify(events.map((e) => e.telemetry))}`);
  const calls = llm.telemetry.toolCalls;
  assert.equal(calls.length, 2, JSON.stringify(calls));
  const answered = calls.find((c) => c.answeredBy);
  const unanswered = calls.find((c) => !c.answeredBy);
  assert.ok(answered && unanswered, `one call answered, one not: ${JSON.stringify(calls)}`);
  const runSpan = spanOf(events, answered.answeredBy);
  const llmSpan = spanOf(events, llm.id);
  const runEvents = events.filter((e) => e.spanId === runSpan.spanId);
  assert.ok(runEvents.every((e) => String(e.telemetry?.requestedBy?.eventId) === String(llm.id)), 'the run names its requester');

  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await consolePage(context);
  await signIn(page, `/console/traces/${toolTrace}?org=${user.orgId}`);
  await page.getByRole('treegrid').waitFor({ timeout: WAIT });
  // The run's step is collapsed: following the link opens it.
  await page.locator('.wf-row[data-key="s:step"] .wf-toggle').click();
  await page.locator(`.wf-row[data-key="s:${runSpan.spanId}"]`).waitFor({ state: 'detached', timeout: WAIT });
  await page.locator(`.wf-row[data-key="s:${llmSpan.spanId}"]`).click();
  await page.waitForURL((u) => u.searchParams.get('span') === llmSpan.spanId, { timeout: WAIT });

  // Both requests, as the API lists them.
  const links = page.locator('[data-testid=span-panel] [data-testid=tool-link]');
  await links.first().waitFor({ timeout: WAIT });
  assert.deepEqual(await links.evaluateAll((lis) => lis.map((li) => li.dataset.callId)), calls.map((c) => c.toolCallId));
  for (const c of calls) {
    const text = await page.locator(`[data-testid=tool-link][data-call-id="${c.toolCallId}"]`).innerText();
    assert.match(text, new RegExp(c.name), `${c.toolCallId}: its tool's name`);
    assert.match(text, new RegExp(c.toolCallId), `${c.toolCallId}: its call id`);
  }
  const open = page.locator(`[data-testid=tool-link][data-call-id="${unanswered.toolCallId}"]`);
  assert.match(await open.innerText(), /not answered/);
  assert.equal(await open.getByRole('link').count(), 0, 'nothing to follow');
  const link = page.locator(`[data-testid=tool-link][data-call-id="${answered.toolCallId}"]`).getByRole('link');
  assert.equal(await link.innerText(), `answered by ${runSpan.name}`);
  assert.equal(new URL(await link.getAttribute('href'), daemon.base).searchParams.get('span'), runSpan.spanId, 'a real link to the run');
  await shot(page, 'links-trace-llm-desktop');

  // Click: the run is selected (its parent opened), in the URL, and its row has the focus.
  await link.click();
  await page.waitForURL((u) => u.searchParams.get('span') === runSpan.spanId, { timeout: WAIT });
  const runRow = page.locator(`.wf-row[data-key="s:${runSpan.spanId}"]`);
  await page.waitForFunction((key) => document.activeElement?.dataset?.key === key, `s:${runSpan.spanId}`, { timeout: WAIT });
  assert.equal(await runRow.getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('.wf-row[data-key="s:step"]').getAttribute('aria-expanded'), 'true', 'the collapsed step opened');
  assert.equal(await page.locator('[data-testid=span-panel] .panel-title').innerText(), runSpan.name);

  // The run names its requester; Enter on that link goes back to the LLM call.
  const by = page.locator('[data-testid=span-panel] [data-testid=requested-by]');
  await by.waitFor({ timeout: WAIT });
  const requester = by.getByRole('link');
  assert.equal(await requester.innerText(), llmSpan.name);
  assert.match(await by.innerText(), new RegExp(answered.toolCallId), 'with the call id');
  await shot(page, 'links-trace-run-desktop');
  await requester.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.searchParams.get('span') === llmSpan.spanId, { timeout: WAIT });
  await page.waitForFunction((key) => document.activeElement?.dataset?.key === key, `s:${llmSpan.spanId}`, { timeout: WAIT });
  // j moves on from there, as from any selected row.
  const rowsKeys = await page.locator('.wf-rows > .wf-row').evaluateAll((rs) => rs.map((r) => r.dataset.key));
  await page.keyboard.press('j');
  await page.waitForURL((u) => `s:${u.searchParams.get('span')}` === rowsKeys[rowsKeys.indexOf(`s:${llmSpan.spanId}`) + 1], { timeout: WAIT });
  // Each link was a step in the history (j is not): Back returns to the run, then to the LLM call.
  await page.goBack();
  await page.waitForURL((u) => u.searchParams.get('span') === runSpan.spanId, { timeout: WAIT });
  await page.locator('[data-testid=span-panel] [data-testid=requested-by]').waitFor({ timeout: WAIT });
  await page.goBack();
  await page.waitForURL((u) => u.searchParams.get('span') === llmSpan.spanId, { timeout: WAIT });
  await page.locator('[data-testid=span-panel] [data-testid=tool-links]').waitFor({ timeout: WAIT });
  await cleanPage(page, 'tool-call links');
  await context.close();
  for (const span of [llmSpan.spanId, runSpan.spanId]) {
    for (const colorScheme of ['light', 'dark']) {
      await axeAt(`/console/traces/${toolTrace}?org=${user.orgId}&span=${span}`, '[data-testid=span-panel] .facts', `trace page, span ${span}`,
        { colorScheme, name: colorScheme === 'dark' ? `links-trace-${span === llmSpan.spanId ? 'llm' : 'run'}-dark` : '' });
    }
  }

  // At phone size the panel and its links fit.
  const phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const small = await consolePage(phone);
  await signIn(small, `/console/traces/${toolTrace}?org=${user.orgId}&span=${llmSpan.spanId}`);
  await small.locator('[data-testid=tool-link]').first().waitFor({ timeout: WAIT });
  await small.locator('[data-testid=tool-links]').scrollIntoViewIfNeeded();
  const m = await small.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  assert.ok(m.doc <= m.view, `the document is ${m.doc} px wide in a ${m.view} px window`);
  await shot(small, 'links-trace-llm-phone');
  await small.locator(`[data-testid=tool-link][data-call-id="${answered.toolCallId}"]`).getByRole('link').click();
  await small.waitForURL((u) => u.searchParams.get('span') === runSpan.spanId, { timeout: WAIT });
  await small.locator('[data-testid=requested-by]').waitFor({ timeout: WAIT });
  await cleanPage(small, 'tool-call links (phone)');
  await phone.close();
});

// The rows of a list (`attr`: data-session-id or data-user-id) once they equal `expected`,
// else what they are when the wait ends (so a failure shows both).
async function rowsEqual(page, attr, expected, what) {
  const read = () => page.locator(`tr[${attr}]`).evaluateAll((trs, a) => trs.map((tr) => tr.getAttribute(a)), attr);
  await page.waitForFunction(([a, want]) => {
    const table = document.querySelector('table.table');
    const got = [...document.querySelectorAll(`tr[${a}]`)].map((tr) => tr.getAttribute(a));
    return table && table.getAttribute('aria-busy') === 'false' && JSON.stringify(got) === JSON.stringify(want);
  }, [attr, expected], { timeout: WAIT }).catch(() => {});
  assert.deepEqual(await read(), expected, what);
}

// Each filter alone and two together; `tag` is the URL's and the field's key=value.
const FILTERS = [
  { model: 'gpt-4o' },
  { environment: 'staging' },
  { tag: 'team=search' },
  { model: 'gpt-4o', tag: 'team=billing' },
  { environment: 'production', model: 'claude-sonnet-4' },
];
const LABELS = { model: 'Model', environment: 'Environment', tag: 'Tag' };

// The API's query for the console's filters: the tag as the pair the daemon takes.
function apiQuery(f) {
  const [key, value] = f.tag ? f.tag.split('=') : [];
  return { model: f.model, environment: f.environment, filterTagKey: key, filterTagValue: value };
}

for (const [screen, path, attr, idOf, prefix] of [
  ['sessions', '/sessions', 'data-session-id', (r) => r.sessionId, 'se'],
  ['users', '/end-users', 'data-user-id', (r) => r.userId, 'eu'],
]) {
  test(`the ${screen} list filters by model, environment and tag as ${path} does`, { timeout: 180_000 }, async () => {
    const since = () => new Date(Date.now() - 7 * 86400e3).toISOString();
    const answer = async (f) => (await get(path, { since: since(), ...apiQuery(f), limit: 50 })).data.map(idOf);
    const all = await answer({});
    assert.ok(all.length >= SESSIONS.length - 1, `${path} lists the seeded rows: ${JSON.stringify(all)}`);

    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await consolePage(context);
    await signIn(page, `/console/${screen}?org=${user.orgId}`);
    await rowsEqual(page, attr, all, `${screen}: unfiltered`);
    for (const f of FILTERS) {
      const want = await answer(f);
      // Every filter here keeps some rows and drops others, so the comparison shows something.
      assert.ok(want.length > 0 && want.length < all.length, `${JSON.stringify(f)} → ${JSON.stringify(want)} of ${JSON.stringify(all)}`);
      for (const k of Object.keys(LABELS)) {
        const field = page.locator(`#${prefix}-${k === 'environment' ? 'env' : k}`);
        assert.equal(await page.getByLabel(LABELS[k], { exact: true }).getAttribute('id'), await field.getAttribute('id'), `${k}: its label`);
        if ((await field.inputValue()) === (f[k] || '')) continue;
        await field.fill(f[k] || '');
        await field.press('Enter');
      }
      await page.waitForURL((u) => Object.keys(LABELS).every((k) => (u.searchParams.get(k) || '') === (f[k] || '')), { timeout: WAIT });
      await rowsEqual(page, attr, want, `${screen} ${JSON.stringify(f)}`);
    }
    // The filters are in the URL: a reload shows the same rows, with the fields filled.
    const last = FILTERS.at(-1);
    await page.reload();
    await rowsEqual(page, attr, await answer(last), `${screen} after a reload`);
    assert.equal(await page.locator(`#${prefix}-model`).inputValue(), last.model);
    assert.equal(await page.locator(`#${prefix}-env`).inputValue(), last.environment);
    if (screen === 'sessions') await shot(page, 'links-sessions-filtered-desktop');
    else await shot(page, 'links-users-filtered-desktop');

    // A tag that is not key=value is explained and left out of the request.
    await page.goto(`${daemon.base}/console/${screen}?org=${user.orgId}&tag=team`);
    await page.getByText('The tag filter is written key=value').waitFor({ timeout: WAIT });
    await rowsEqual(page, attr, all, `${screen}: half a tag filters nothing`);

    // A row's links carry the filters: the user's traces (and, from users, sessions) count alike.
    const f = { model: 'gpt-4o', tag: 'team=search' };
    const q = new URLSearchParams({ org: String(user.orgId), ...f });
    await page.goto(`${daemon.base}/console/${screen}?${q}`);
    const want = await answer(f);
    await rowsEqual(page, attr, want, `${screen} ${JSON.stringify(f)}`);
    const first = page.locator(`tr[${attr}="${want[0]}"]`);
    if (screen === 'users') {
      const sessions = new URL(await first.getByRole('link').first().getAttribute('href'), daemon.base).searchParams;
      assert.deepEqual([sessions.get('user'), sessions.get('model'), sessions.get('tag')], [want[0], f.model, f.tag], "the user's sessions, filtered alike");
    }
    await (screen === 'sessions' ? first.locator('a.chip-link').first() : first.locator('.user-id')).click();
    await page.waitForURL(/\/console\/traces\?/, { timeout: WAIT });
    const traces = new URL(page.url()).searchParams;
    assert.equal(traces.get('model'), f.model);
    assert.equal(traces.get('tag'), f.tag);
    const listed = await get('/traces', { since: new Date(Date.now() - 7 * 86400e3).toISOString(), user: traces.get('user'), ...apiQuery(f), limit: 50 });
    await page.locator('tr[data-trace-id]').first().waitFor({ timeout: WAIT });
    await rowsEqual(page, 'data-trace-id', listed.data.map((t) => t.traceId), `${screen} → the user's traces, filtered alike`);
    await cleanPage(page, `${screen} filters`);
    await context.close();
    await axeAt(`/console/${screen}?org=${user.orgId}&model=gpt-4o&tag=team`, `tr[${attr}]`, `${screen} filtered`);

    // At phone size the toolbar wraps and nothing overflows.
    const phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const small = await consolePage(phone);
    await signIn(small, `/console/${screen}?org=${user.orgId}&model=gpt-4o`);
    await rowsEqual(small, attr, await answer({ model: 'gpt-4o' }), `${screen} (phone)`);
    const m = await small.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth,
      pane: document.querySelector('main').scrollWidth, paneView: document.querySelector('main').clientWidth }));
    assert.ok(m.doc <= m.view && m.pane <= m.paneView, `${screen} at 390 px: ${JSON.stringify(m)}`);
    await shot(small, `links-${screen}-filtered-phone`);
    await cleanPage(small, `${screen} filters (phone)`);
    await phone.close();
  });
}
