// Drives agent-eventsd's POST /mcp with an official MCP TypeScript client and checks every
// tool against the REST answers. AEV_MCP_CLIENT_KIND picks the client and the era:
//   sdk1            @modelcontextprotocol/sdk 1.x: the 2025 revisions (initialize handshake)
//   client2_modern  @modelcontextprotocol/client 2.x, versionNegotiation 'auto': it probes
//                   with server/discover and speaks the stateless 2026-07-28 revision
//   client2_legacy  the same 2.x client in its default mode: initialize, 2025-11-25
// Run by tests/integration/mcp/mcp_client_test.cpp, which seeds two organizations and
// passes what it made in AEV_MCP_SEED (JSON). Prints one JSON line
// {"ok":true,"calls":N,...} on success; exits 1 with the failures otherwise.
import assert from 'node:assert/strict';

const kind = process.env.AEV_MCP_CLIENT_KIND ?? 'sdk1';

// What differs between the two client packages: how to build a client and how each
// reports a JSON-RPC error and an HTTP refusal.
async function loadClient() {
  if (kind === 'sdk1') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport, StreamableHTTPError } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const { McpError } = await import('@modelcontextprotocol/sdk/types.js');
    return {
      era: 'legacy',
      version: '2025-11-25',
      newClient: () => new Client({ name: 'agent-events-test', version: '1.0.0' }),
      Transport: StreamableHTTPClientTransport,
      isRpcError: (e, code) => e instanceof McpError && e.code === code,
      isHttpRefusal: (e, status) => e instanceof StreamableHTTPError && e.code === status,
    };
  }
  if (kind === 'client2_modern' || kind === 'client2_legacy') {
    const mod = await import('@modelcontextprotocol/client');
    const modern = kind === 'client2_modern';
    return {
      era: modern ? 'modern' : 'legacy',
      version: modern ? '2026-07-28' : '2025-11-25',
      newClient: () => new mod.Client({ name: 'agent-events-test', version: '1.0.0' },
        modern ? { versionNegotiation: { mode: 'auto' } } : undefined),
      Transport: mod.StreamableHTTPClientTransport,
      isRpcError: (e, code) => e instanceof mod.ProtocolError && e.code === code,
      // Without an OAuth provider the 2.x client reports a 401 with its status, and a 403 as
      // InsufficientScopeError read from our WWW-Authenticate (scope "read").
      isHttpRefusal: (e, status) => status === 403
        ? e instanceof mod.InsufficientScopeError && /"read"/.test(e.message)
        : e instanceof mod.SdkHttpError && e.status === status,
    };
  }
  throw new Error(`unknown AEV_MCP_CLIENT_KIND ${kind}`);
}

const lib = await loadClient();
const seed = JSON.parse(process.env.AEV_MCP_SEED);
const base = seed.baseUrl;
const mcpUrl = new URL(`${base}/mcp`);
const failures = [];
let calls = 0;  // tools/call requests made with the read key of organization A (each is audited)

async function check(name, fn) {
  try {
    await fn();
  } catch (e) {
    failures.push(`${name}: ${e && e.stack ? e.stack : e}`);
  }
}

async function connect(headers) {
  const client = lib.newClient();
  const transport = new lib.Transport(mcpUrl, { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

async function rest(path, auth) {
  const headers = auth === 'bearer'
    ? { Authorization: `Bearer ${seed.a.bearer}`, 'x-tenant-id': String(seed.a.orgId) }
    : { 'X-API-Key': seed.a.readKey };
  const r = await fetch(`${base}${path}`, { headers });
  assert.equal(r.status, 200, `GET ${path}: ${r.status} ${await r.clone().text()}`);
  return r.json();
}

function without(obj, ...keys) {
  const copy = { ...obj };
  for (const k of keys) delete copy[k];
  return copy;
}

// One tools/call with checks every successful result must pass: structuredContent
// present, the one text block is the same JSON, within the cap, valid.
async function call(client, name, args = {}, { counted = true } = {}) {
  if (counted) calls++;
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.content.length, 1, `${name}: one content block`);
  assert.equal(r.content[0].type, 'text');
  if (r.isError) return r;
  assert.ok(r.structuredContent, `${name}: structuredContent`);
  assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent, `${name}: text block = structuredContent`);
  assert.ok([...r.content[0].text].length <= 40000, `${name}: text within the cap`);
  assert.equal(typeof r.structuredContent.truncated, 'boolean', `${name}: truncated stated`);
  return r;
}

async function expectToolError(client, name, args, pattern) {
  const r = await call(client, name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}: expected isError, got ${r.content[0].text.slice(0, 300)}`);
  assert.equal(r.structuredContent, undefined, `${name}: no structuredContent on isError`);
  if (pattern) assert.match(r.content[0].text, pattern, `${name}: error text`);
  return r.content[0].text;
}

const win = { since: seed.since, until: seed.until };
const windowQuery = `since=${encodeURIComponent(seed.since)}&until=${encodeURIComponent(seed.until)}`;

const { client, transport } = await connect({ Authorization: `Bearer ${seed.a.readKey}` });

await check('initialize', async () => {
  const info = client.getServerVersion();
  assert.equal(info.name, 'agent-events');
  assert.ok(client.getServerCapabilities().tools, 'tools capability');
  assert.match(client.getInstructions() ?? '', /get_context/);
  assert.equal(transport.sessionId, undefined, 'no Mcp-Session-Id');
  if (client.getNegotiatedProtocolVersion) assert.equal(client.getNegotiatedProtocolVersion(), lib.version, 'negotiated revision');
  if (client.getProtocolEra) assert.equal(client.getProtocolEra(), lib.era);
  if (lib.era === 'legacy') {
    await client.ping();
  } else {
    // ping is not part of 2026-07-28: the client refuses it itself, or the server says 404 -32601.
    await assert.rejects(client.ping());
    const discover = client.getDiscoverResult();
    assert.ok(discover.supportedVersions.includes('2026-07-28'), 'server/discover lists the revision');
    assert.ok(discover.capabilities.tools, 'tools capability in discover');
  }
});

const expectedTools = ['get_context', 'list_channels', 'search_events', 'get_event', 'list_traces', 'get_trace_summary',
  'get_trace_events', 'list_sessions', 'get_session', 'analytics_breakdown', 'analytics_dimensions', 'analytics_timeseries', 'analytics_latency',
  'list_alerts', 'list_moderation_violations', 'moderation_efficacy', 'spend_status'];

await check('tools/list', async () => {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  assert.deepEqual(tools.map((t) => t.name), expectedTools);
  for (const t of tools) {
    assert.match(t.name, /^[a-z][a-z0-9_]*$/);
    assert.equal(t.annotations.readOnlyHint, true, t.name);
    assert.equal(t.annotations.destructiveHint, false, t.name);
    assert.equal(t.inputSchema.type, 'object');
    assert.equal(t.outputSchema.type, 'object');
    assert.ok(!JSON.stringify(t.inputSchema).includes('anyOf'), `${t.name}: flat input schema`);
    assert.ok(t.description.length > 20, t.name);
  }
});

await check('get_context', async () => {
  const r = (await call(client, 'get_context')).structuredContent;
  assert.equal(r.organization.id, String(seed.a.orgId));
  assert.equal(r.apiKey.id, String(seed.a.readKeyId));
  assert.deepEqual(r.apiKey.scopes, ['read']);
  assert.ok(Math.abs(Date.parse(r.now) - Date.now()) < 60000, 'now is the server time');
  assert.ok(r.retentionDays > 0);
  const app = r.apps.find((a) => a.appId === String(seed.a.appId));
  assert.ok(app, 'the seeded app');
  assert.ok(app.channels.some((c) => c.channelId === String(seed.a.channelId)));
  const restApps = await rest('/apps', 'bearer');
  assert.deepEqual(r.apps.map((a) => a.appId).sort(), restApps.map((a) => a.appId).sort(), 'exactly the apps of A');
  assert.ok(r.dimensions.includes('model'));
  await expectToolError(client, 'get_context', { bogus: 1 }, /unknown argument 'bogus'/);
});

await check('list_channels', async () => {
  const r = (await call(client, 'list_channels', { appId: String(seed.a.appId) })).structuredContent;
  const rest1 = await rest(`/channel/${seed.a.channelId}`, 'bearer');
  const ch = r.channels.find((c) => c.channelId === String(seed.a.channelId));
  assert.deepEqual(without(ch, 'appName'), without(rest1, '$schema'));
  assert.equal(r.nextCursor, null);
  // One row per answer: the cursor walks all of them.
  const seen = [];
  let cursor;
  do {
    const p = (await call(client, 'list_channels', cursor ? { limit: 1, cursor } : { limit: 1 })).structuredContent;
    seen.push(...p.channels.map((c) => c.channelId));
    cursor = p.nextCursor;
  } while (cursor);
  const all = (await call(client, 'list_channels', { limit: 200 })).structuredContent.channels.map((c) => c.channelId);
  assert.deepEqual(seen, all);
  await expectToolError(client, 'list_channels', { limit: 0 }, /'limit' must be an integer from 1 to 200/);
  await expectToolError(client, 'list_channels', { appId: String(seed.b.appId) }, /not found in this organization/);
});

await check('search_events', async () => {
  const r = (await call(client, 'search_events', { channelId: String(seed.a.channelId), limit: 5, maxPayloadChars: 4000 })).structuredContent;
  const list = await rest(`/event/${seed.a.channelId}/list?limit=5`, 'key');
  assert.deepEqual(r.events, list.data);
  assert.equal(r.total, list.meta.total);
  const byTrace = (await call(client, 'search_events', { traceId: seed.a.traceId, maxPayloadChars: 4000 })).structuredContent;
  const restTrace = await rest(`/traces/${encodeURIComponent(seed.a.traceId)}/events`, 'key');
  assert.deepEqual(byTrace.events, restTrace);
  const cut = (await call(client, 'search_events', { traceId: seed.a.traceId, maxPayloadChars: 5 })).structuredContent;
  const long = cut.events.find((e) => e.payloadPreview);
  assert.ok(long, 'a payload longer than 5 chars is cut');
  assert.match(long.payloadPreview, /…\[\+\d+ chars\]$/);
  assert.equal(long.payload, undefined);
  await expectToolError(client, 'search_events', {}, /exactly one of 'channelId'/);
  await expectToolError(client, 'search_events', { channelId: String(seed.b.channelId) }, /not found in this organization/);
});

await check('get_event', async () => {
  const list = await rest(`/event/${seed.a.channelId}/list?limit=1`, 'key');
  const r = (await call(client, 'get_event', { eventId: list.data[0].id.toString() })).structuredContent;
  assert.deepEqual(r.event, list.data[0]);
  const other = await expectToolError(client, 'get_event', { eventId: String(seed.b.eventId) }, /No event/);
  const none = await expectToolError(client, 'get_event', { eventId: '999999999' }, /No event/);
  assert.equal(other.replace(String(seed.b.eventId), 'N'), none.replace('999999999', 'N'), 'another organization\'s id reads as absent');
  await expectToolError(client, 'get_event', { eventId: 'abc' }, /decimal id/);
});

await check('list_traces', async () => {
  const r = (await call(client, 'list_traces', { ...win, limit: 50 })).structuredContent;
  const list = await rest(`/traces?${windowQuery}&limit=50`, 'key');
  assert.deepEqual(r.traces, list.data);
  assert.equal(r.total, list.meta.total);
  assert.equal(r.window.since, seed.since);
  assert.equal(r.window.until, seed.until);
  assert.ok(!r.traces.some((t) => t.traceId === seed.b.traceId), 'no trace of B');
  const relative = (await call(client, 'list_traces', { since: '7d' })).structuredContent;
  assert.ok(Date.parse(relative.window.until) - Date.parse(relative.window.since) === 7 * 86400000);
  await expectToolError(client, 'list_traces', { since: 'yesterday' }, /RFC 3339 .* or relative/);
  await expectToolError(client, 'list_traces', { since: seed.until, until: seed.since }, /after 'until'/);
});

await check('list_traces filters', async () => {
  for (const [args, query] of [
    [{ filterTagKey: 'team', filterTagValue: 'search' }, 'filterTagKey=team&filterTagValue=search'],
    [{ filterTagKey: 'team', filterTagValue: 'nobody' }, 'filterTagKey=team&filterTagValue=nobody'],
    [{ environment: 'production' }, 'environment=production'],
    [{ model: 'claude-3-haiku' }, 'model=claude-3-haiku'],
  ]) {
    const r = (await call(client, 'list_traces', { ...win, ...args, limit: 50 })).structuredContent;
    const list = await rest(`/traces?${windowQuery}&${query}&limit=50`, 'key');
    assert.deepEqual(r.traces, list.data, query);
    assert.equal(r.total, list.meta.total, query);
  }
  const tagged = (await call(client, 'list_traces', { ...win, filterTagKey: 'team', filterTagValue: 'search' })).structuredContent;
  assert.ok(tagged.traces.some((t) => t.traceId === seed.a.traceId), 'the tagged trace is found by its tag');
  await expectToolError(client, 'list_traces', { filterTagKey: 'team' }, /used as a pair: add 'filterTagValue'/);
});

await check('list_sessions', async () => {
  for (const [args, query] of [
    [{}, ''],
    [{ model: 'gpt-4o' }, '&model=gpt-4o'],
    [{ model: 'no-such-model' }, '&model=no-such-model'],
    [{ filterTagKey: 'team', filterTagValue: 'search' }, '&filterTagKey=team&filterTagValue=search'],
    [{ userId: 'ada', sort: 'cost', order: 'asc' }, '&user=ada&sort=cost&order=asc'],
  ]) {
    const r = (await call(client, 'list_sessions', { ...win, ...args, limit: 50 })).structuredContent;
    const list = await rest(`/sessions?${windowQuery}${query}&limit=50`, 'key');
    assert.deepEqual(r.sessions, list.data, query);
    assert.equal(r.total, list.meta.total, query);
  }
  const all = (await call(client, 'list_sessions', win)).structuredContent;
  assert.deepEqual(all.sessions.map((s) => s.sessionId), ['chat-1'], 'the seeded session, and none of B');
  assert.deepEqual(all.sessions[0].userIds, ['ada']);
  const none = (await call(client, 'list_sessions', { ...win, model: 'no-such-model' })).structuredContent;
  assert.equal(none.total, 0);
  await expectToolError(client, 'list_sessions', { filterTagValue: 'search' }, /used as a pair: add 'filterTagKey'/);
});

await check('get_session', async () => {
  const r = (await call(client, 'get_session', { sessionId: 'chat-1' })).structuredContent;
  const detail = await rest('/sessions/chat-1', 'key');
  assert.equal(r.sessionId, 'chat-1');
  assert.equal(r.traceCount, detail.traceCount);
  assert.deepEqual(r.traces.map((t) => t.traceId), detail.traces.map((t) => t.traceId));
  assert.deepEqual(r.traces.map((t) => t.traceId), [seed.a.traceId]);
  await expectToolError(client, 'get_session', { sessionId: 'no-such-session' }, /not found|No session/);
});

await check('get_trace_summary', async () => {
  const r = (await call(client, 'get_trace_summary', { traceId: seed.a.traceId })).structuredContent;
  const s = await rest(`/traces/${encodeURIComponent(seed.a.traceId)}/summary`, 'key');
  assert.deepEqual(without(r, 'next', 'truncated'), s);
  const other = await expectToolError(client, 'get_trace_summary', { traceId: seed.b.traceId }, /not found in this organization/);
  const none = await expectToolError(client, 'get_trace_summary', { traceId: 'no-such-trace' }, /not found in this organization/);
  assert.equal(other, none, 'another organization\'s trace reads as absent');
});

await check('get_trace_events', async () => {
  const restEvents = await rest(`/traces/${encodeURIComponent(seed.a.traceId)}/events`, 'key');
  const skeleton = (await call(client, 'get_trace_events', { traceId: seed.a.traceId })).structuredContent;
  assert.deepEqual(skeleton.events.map((e) => e.id), restEvents.map((e) => e.id));
  assert.ok(skeleton.events.every((e) => e.payload === undefined && typeof e.payloadChars === 'number'));
  assert.equal(skeleton.totalEvents, restEvents.length);
  const full = (await call(client, 'get_trace_events', { traceId: seed.a.traceId, includePayloads: true, maxPayloadChars: 4000 })).structuredContent;
  assert.deepEqual(full.events, restEvents);
  const errors = (await call(client, 'get_trace_events', { traceId: seed.a.traceId, eventTypes: ['agent.error'] })).structuredContent;
  assert.deepEqual(errors.events.map((e) => e.id), restEvents.filter((e) => e.eventType === 'agent.error').map((e) => e.id));
  assert.ok(errors.events.length > 0);
  await expectToolError(client, 'get_trace_events', { traceId: seed.b.traceId }, /not found in this organization/);
  await expectToolError(client, 'get_trace_events', { traceId: seed.a.traceId, includePayloads: 'yes' }, /true or false/);
});

for (const [tool, path, extra] of [
  ['analytics_breakdown', '/analytics/breakdown', { dimension: 'model' }],
  ['analytics_timeseries', '/analytics/timeseries', { metric: 'cost_usd', interval: 'hour' }],
  ['analytics_latency', '/analytics/latency', {}],
]) {
  await check(tool, async () => {
    const r = (await call(client, tool, { ...win, ...extra })).structuredContent;
    const query = Object.entries(extra).map(([k, v]) => `&${k}=${v}`).join('');
    const body = await rest(`${path}?${windowQuery}${query}${tool === 'analytics_breakdown' ? '&limit=20' : ''}`, 'key');
    assert.deepEqual(without(r, 'window', 'truncated'), body);
    if (tool === 'analytics_breakdown') assert.ok(r.rows.some((row) => row.key === 'gpt-4o' && row.costUsd > 0), 'seeded cost');
    const bad = tool === 'analytics_breakdown' ? { dimension: 'colour' } : tool === 'analytics_timeseries' ? { metric: 'x' } : { since: '5 minutes' };
    await expectToolError(client, tool, bad);
  });
}

await check('analytics_dimensions', async () => {
  const r = (await call(client, 'analytics_dimensions')).structuredContent;
  assert.deepEqual(without(r, 'truncated'), await rest('/analytics/dimensions?limit=50', 'key'));
  assert.ok(r.dimensions.some((d) => d.key === 'team'));
  await expectToolError(client, 'analytics_dimensions', { limit: 501 }, /from 1 to 500/);
});

await check('list_alerts', async () => {
  const r = (await call(client, 'list_alerts')).structuredContent;
  const body = await rest('/v2/alerts', 'bearer');
  assert.deepEqual(r.alerts, body.data);
  assert.ok(r.alerts.length > 0);
  await expectToolError(client, 'list_alerts', { state: 'burning' }, /one of firing, ok, all/);
});

await check('list_moderation_violations', async () => {
  const r = (await call(client, 'list_moderation_violations', win)).structuredContent;
  const body = await rest(`/moderation/violations?${windowQuery}`, 'key');
  assert.deepEqual(r.violations, body.data);
  assert.ok(r.violations.length > 0, 'seeded violations');
  await expectToolError(client, 'list_moderation_violations', { action: 'ban' }, /must be one of/);
});

await check('moderation_efficacy', async () => {
  const r = (await call(client, 'moderation_efficacy', win)).structuredContent;
  const body = await rest(`/moderation/efficacy?${windowQuery}`, 'key');
  assert.deepEqual(without(r, 'window', 'truncated'), without(body, '$schema'));
  await expectToolError(client, 'moderation_efficacy', { until: 'tomorrow' });
});

await check('spend_status', async () => {
  const r = (await call(client, 'spend_status')).structuredContent;
  const body = await rest('/spend-policies', 'bearer');
  assert.deepEqual(r.policies.map((p) => without(p, 'percentUsed')), body.policies);
  assert.ok(r.policies.length > 0);
  const other = await expectToolError(client, 'spend_status', { policyId: String(seed.b.policyId) }, /No spend policy/);
  const none = await expectToolError(client, 'spend_status', { policyId: '999999999' }, /No spend policy/);
  assert.equal(other.replace(String(seed.b.policyId), 'N'), none.replace('999999999', 'N'));
});

await check('unknown tool', async () => {
  calls++;
  await assert.rejects(client.callTool({ name: 'drop_everything', arguments: {} }),
    (e) => lib.isRpcError(e, -32602) && /Unknown tool/.test(e.message));
});

await check('output cap', async () => {
  // The big channel holds more than 40,000 characters of events: every answer is cut at
  // a row, its JSON valid, and the cursors continue exactly where each answer stopped.
  const all = [];
  for (let page = 1; ; page++) {
    const list = await rest(`/event/${seed.a.bigChannelId}/list?limit=100&page=${page}`, 'key');
    all.push(...list.data.map((e) => e.id));
    if (list.data.length < 100) break;
  }
  const seen = [];
  let cursor;
  let truncatedAnswers = 0;
  do {
    const args = { channelId: String(seed.a.bigChannelId), limit: 100, maxPayloadChars: 4000 };
    const r = await call(client, 'search_events', cursor ? { ...args, cursor } : args);
    assert.ok(!r.isError, r.content[0].text);
    const s = r.structuredContent;
    if (s.truncated) {
      truncatedAnswers++;
      assert.ok(s.nextCursor, 'a truncated answer has a cursor');
    }
    assert.equal(s.returned, s.events.length);
    seen.push(...s.events.map((e) => e.id));
    cursor = s.nextCursor;
  } while (cursor);
  assert.ok(truncatedAnswers > 0, 'the cap was reached');
  assert.deepEqual(seen, all, 'the cursors walk every event once, in order');
  await expectToolError(client, 'search_events', { channelId: String(seed.a.channelId), cursor: 'not-a-cursor' }, /not a nextCursor/);
});

await client.close();

await check('401 without a key', async () => {
  await assert.rejects(connect({}), (e) => lib.isHttpRefusal(e, 401));
});
await check('401 with an unknown key', async () => {
  await assert.rejects(connect({ Authorization: 'Bearer aes_not_a_real_key' }), (e) => lib.isHttpRefusal(e, 401));
});
await check('401 with a revoked key', async () => {
  await assert.rejects(connect({ 'X-API-Key': seed.a.revokedKey }), (e) => lib.isHttpRefusal(e, 401));
});
await check('403 without the read scope', async () => {
  await assert.rejects(connect({ Authorization: `Bearer ${seed.a.publishKey}` }), (e) => lib.isHttpRefusal(e, 403));
});

await check('X-API-Key works too', async () => {
  const { client: c } = await connect({ 'X-API-Key': seed.a.readKey });
  const r = await call(c, 'get_context');
  assert.equal(r.structuredContent.organization.id, String(seed.a.orgId));
  await c.close();
});

await check('organization B sees only its own', async () => {
  const { client: c } = await connect({ Authorization: `Bearer ${seed.b.readKey}` });
  const traces = (await call(c, 'list_traces', win, { counted: false })).structuredContent;
  assert.deepEqual(traces.traces.map((t) => t.traceId), [seed.b.traceId]);
  await expectToolError(c, 'get_trace_summary', { traceId: seed.a.traceId }, /not found in this organization/);
  calls--;  // expectToolError counted it, but it is audited in B
  await c.close();
});

if (failures.length) {
  console.error(failures.join('\n\n'));
  process.exit(1);
}
console.log(JSON.stringify({ ok: true, calls, kind, version: lib.version }));
