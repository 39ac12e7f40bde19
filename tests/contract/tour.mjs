// Real traffic validated against the document (tests/contract/validator.mjs): a tour that
// makes valid requests to the operations of every area — accounts and organizations, apps
// and channels, keys, publishing in both shapes, lists, streams' tokens, traces,
// analytics, environments, moderation, spend, alerts, webhooks, exports, audit, admin,
// OTLP, MCP, and the deletes — plus the usual mistakes (no credentials, a bad body, a
// missing record). Every request and every answer is checked; any violation fails, and
// the operations the tour did not reach are listed.
// Usage: node tour.mjs <openapi.json> <baseUrl> <admin access token> <admin org id>
import { readFileSync } from 'node:fs';
import { ContractValidator } from './validator.mjs';

const [docFile, base, adminToken] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(docFile, 'utf8'));
const v = new ContractValidator(doc);
const vfetch = v.fetch();
const unexpected = [];

// One request: `as` is a bearer token or an API key (aes_...), `expect` the status wanted.
async function call(method, path, { as, body, headers = {}, expect, raw } = {}) {
  const h = { ...headers };
  if (as) h[as.startsWith('aes_') ? 'x-api-key' : 'authorization'] = as.startsWith('aes_') ? as : `Bearer ${as}`;
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    h['content-type'] ??= 'application/json';
  }
  const res = await vfetch(base + path, { method, headers: h, body: payload });
  const text = await res.text();
  const ok = expect === undefined ? res.status >= 200 && res.status < 300 : res.status === expect;
  if (!ok) unexpected.push(`${method} ${path}: ${res.status} (wanted ${expect ?? '2xx'}) ${text.slice(0, 300)}`);
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

const u = `t${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
const now = new Date();
const since = new Date(now.getTime() - 3600e3).toISOString();
const until = new Date(now.getTime() + 3600e3).toISOString();

// The public routes.
await call('GET', '/healthz');
await call('GET', '/readyz');
await call('GET', '/openapi.json');
await call('GET', '/schemas/Organization.json');
await call('GET', '/schemas/NoSuch.json', { expect: 404 });
await call('GET', '/metrics');

// Accounts.
const password = 'correct horse battery';
const user = await call('POST', '/auth/register', { body: { email: `${u}@example.com`, username: u, password }, expect: 201 });
await call('POST', '/auth/register', { body: { email: 'x', username: '!', password: 'short' }, expect: 422 });
const pair = await call('POST', '/auth/login', { body: { login: u, password } });
await call('POST', '/auth/login', { body: { login: u, password: 'wrong password' }, expect: 401 });
const pair2 = await call('POST', '/auth/refresh', { body: { refresh_token: pair.refresh_token } });
let token = pair2.access_token;
await call('GET', '/auth/whoami', { as: token });
await call('GET', '/auth/whoami', { expect: 401 });
await call('GET', '/users/me', { as: token });
await call('PATCH', '/users/me', { as: token, body: { first_name: 'Ada' } });
await call('GET', '/users/me/organizations', { as: token });
await call('GET', '/v2/users/me/organizations', { as: token });

// An organization of its own (its tokens act on it).
const org = await call('POST', '/organizations', { as: token, body: { name: `Org ${u}`, slug: `org-${u}` }, expect: 201 });
token = org.access_token;
const orgId = org.orgId;
const tenant = { 'x-tenant-id': orgId };
await call('GET', `/organizations/${orgId}`, { as: token });
await call('PATCH', `/organizations/${orgId}`, { as: token, body: { description: 'the contract tour' } });
await call('PATCH', '/organization', { as: token, body: { name: `Org ${u} renamed` } });
await call('GET', `/organizations/${orgId}/contents`, { as: token });
await call('GET', `/organizations/${orgId}/members`, { as: token });
// Two more members, each invited and accepting: one promoted then removed from the
// organization, the other's account deleted by the organization's admin.
async function member(tag) {
  const email = `${tag}-${u}@example.com`;
  const invitation = await call('POST', `/organizations/${orgId}/invitations`, { as: token, body: { invitedEmail: email }, expect: 201 });
  const account = await call('POST', '/auth/register', { body: { email, username: `${tag}${u}`, password }, expect: 201 });
  const guestToken = (await call('POST', '/auth/login', { body: { email, password } })).access_token;
  await call('POST', `/invitations/${invitation.code}/accept`, { as: guestToken });
  return account;
}
const promoted = await member('g1');
await call('PATCH', `/organizations/${orgId}/members/${promoted.id}`, { as: token, body: { role: 'admin' } });
await call('DELETE', `/organizations/${orgId}/members/${promoted.id}`, { as: token, expect: 204 });
const leaving = await member('g2');
await call('DELETE', `/users/${leaving.id}`, { as: token, expect: 204 });
await call('GET', `/organizations/${orgId}/invitations`, { as: token });
await call('GET', '/organizations/999999999', { as: token, expect: 404 });
await call('PATCH', '/users/me/active-org', { as: token, body: { organizationId: Number(orgId) } });
const switched = await call('PATCH', '/v2/users/me/active-org', { as: token, body: { orgId } });
token = switched.access_token;

// Apps and channels, both shapes.
const app = await call('POST', '/apps', { as: token, body: { name: 'tour app' }, expect: 201 });
await call('GET', '/apps', { as: token, headers: tenant });
await call('GET', '/apps', { as: token, expect: 400 });
await call('GET', `/apps/${app.appId}`, { as: token });
await call('PATCH', `/apps/${app.appId}`, { as: token, headers: tenant, body: { name: 'tour app 2' } });
const channel = await call('POST', `/apps/${app.appId}/channels`, { as: token, body: { name: 'main' }, expect: 201 });
const channel2 = await call('POST', '/channel', { as: token, headers: tenant, body: { name: 'second', appId: app.appId }, expect: 201 });
await call('GET', `/channel/${channel.channelId}`, { as: token, headers: tenant });
await call('POST', '/apps', { as: token, body: { name: '' }, expect: 422 });
await call('POST', '/apps', { as: token, raw: '{not json', headers: { 'content-type': 'application/json' }, expect: 400 });

// API keys.
const publishKey = (await call('POST', '/api-keys', { as: token, body: { name: 'pub', scopes: ['publish'] }, expect: 201 })).key;
const readKey = (await call('POST', '/api-keys', { as: token, body: { name: 'read', scopes: ['read', 'subscribe'] }, expect: 201 })).key;
const spare = await call('POST', '/api-keys', { as: token, body: { name: 'spare', scopes: ['read'] }, expect: 201 });
await call('GET', '/api-keys', { as: token });
await call('POST', '/api-keys', { as: token, body: { name: 'bad', scopes: ['everything'] }, expect: 422 });

// Publishing: both shapes, a batch, the two spellings disagreeing.
const traceId = `trace-${u}`;
const published = await call('POST', '/event', {
  as: publishKey,
  body: {
    identifier: 'llm call', channel_id: Number(channel.channelId), agentId: 'planner', eventType: 'agent.message', traceId,
    spanId: 's1', payload: { messages: { input: [{ role: 'user', content: 'hello' }], output: [{ role: 'assistant', content: 'hi' }] } },
    metadata: { model: 'gpt-4o', provider: 'openai', usage: { input_tokens: 10, output_tokens: 5 }, session: `conv-${u}`, user: `user-${u}`, tags: { team: 'tour' } },
  },
  expect: 201,
});
await call('POST', '/event', { as: publishKey, body: { identifier: 'x', channelId: channel.channelId, payload: {}, traceId, eventType: 'agent.end' }, expect: 201 });
await call('POST', '/event', { as: publishKey, body: { identifier: 'x', channel_id: Number(channel.channelId), channelId: '999999', payload: {} }, expect: 422 });
await call('POST', '/events/batch', {
  as: publishKey,
  body: { events: [{ identifier: 'b1', channel_id: Number(channel.channelId), payload: { n: 1 }, traceId }, { identifier: 'b2', channelId: channel.channelId, payload: { n: 2 } }] },
});
await call('POST', '/event', { as: readKey, body: { identifier: 'x', channel_id: Number(channel.channelId), payload: {} }, expect: 403 });
await call('GET', `/event/${channel.channelId}/list?page=1&limit=10`, { as: readKey });
await call('GET', `/event/${channel.channelId}/list?limit=1000`, { as: readKey, expect: 422 });
await call('POST', '/stream-tokens', { as: readKey, body: { channelId: channel.channelId }, expect: 201 });

// Traces and analytics.
await call('GET', `/traces?limit=5`, { as: readKey });
await call('GET', `/traces/${traceId}/events`, { as: readKey });
await call('GET', `/traces/${traceId}/summary`, { as: readKey });
await call('GET', `/traces?session=conv-${u}&user=user-${u}`, { as: readKey });
await call('GET', '/sessions?sort=cost&order=asc', { as: readKey });
await call('GET', `/sessions/conv-${u}`, { as: readKey });
await call('GET', `/sessions/no-such-${u}`, { as: readKey, expect: 404 });
await call('GET', `/end-users?search=user-`, { as: readKey });
await call('GET', '/end-users?colour=red', { as: readKey, expect: 422 });
const window = `since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`;
await call('GET', `/analytics/breakdown?${window}&dimension=model`, { as: readKey });
await call('GET', '/analytics/dimensions', { as: readKey });
await call('GET', `/analytics/timeseries?${window}`, { as: readKey });
await call('GET', `/analytics/latency?${window}`, { as: readKey });
await call('GET', `/analytics/overview?${window}`, { as: token });

// Environments.
const env = await call('POST', '/environments', { as: token, body: { name: 'Production', slug: 'prod' }, expect: 201 });
await call('GET', '/environments', { as: token });
await call('GET', `/environments/${env.environmentId}`, { as: token });
await call('PATCH', `/environments/${env.environmentId}`, { as: token, body: { name: 'Prod' } });

// Moderation.
const rule = await call('POST', '/moderation/rules', { as: token, body: { name: 'no secrets', action: 'flag', detector: 'regex', pattern: 'sk-[a-z0-9]+' }, expect: 201 });
await call('GET', '/moderation/rules', { as: token });
await call('GET', `/moderation/rules/${rule.ruleId ?? rule.id}`, { as: token });
await call('PATCH', `/moderation/rules/${rule.ruleId ?? rule.id}`, { as: token, body: { enabled: false } });
await call('POST', '/moderation/evaluate', { as: token, body: { identifier: 'x', payload: { text: 'sk-abc' } } });
await call('GET', `/moderation/violations?${window}`, { as: token });
await call('GET', `/moderation/efficacy?${window}`, { as: token });

// Spend.
const policy = await call('POST', '/spend-policies', {
  as: token, body: { name: 'monthly', limitUsd: 100, windowType: 'month', rungs: [{ at_percent: 80, action: 'alert' }] }, expect: 201,
});
const policyId = policy.policyId ?? policy.id;
await call('GET', '/spend-policies', { as: token });
await call('GET', `/spend-policies/${policyId}`, { as: token });
await call('PATCH', `/spend-policies/${policyId}`, { as: token, body: { limitUsd: 150 } });
await call('POST', '/spend-policies/check', { as: publishKey, body: { model: 'gpt-4o' } });

// Alerts.
const alert = await call('POST', '/v2/alerts', { as: token, body: { name: 'errors', metric: 'error_count', operator: 'gt', threshold: 5 }, expect: 201 });
const alertId = alert.alertRuleId ?? alert.id;
await call('GET', '/v2/alerts', { as: token });
await call('GET', `/v2/alerts/${alertId}`, { as: token });
await call('PATCH', `/v2/alerts/${alertId}`, { as: token, body: { threshold: 10 } });
await call('GET', `/v2/alerts/${alertId}/events`, { as: token });

// Webhooks and exports (receivers that are never called: nothing is due within the tour).
const hook = await call('POST', '/webhooks/endpoints', { as: token, body: { url: 'https://hooks.example.com/in', channelId: channel.channelId }, expect: 201 });
const hookId = hook.endpointId ?? hook.id;
await call('GET', '/webhooks/endpoints', { as: token });
await call('GET', `/webhooks/endpoints/${hookId}`, { as: token });
await call('GET', `/webhooks/endpoints/channel/${channel.channelId}`, { as: token });
await call('PATCH', `/webhooks/endpoints/${hookId}`, { as: token, body: { description: 'tour' } });
await call('GET', `/webhooks/deliveries/${hookId}`, { as: token });
await call('POST', `/webhooks/ingest/${hookId}`, { expect: 403 });
const dest = await call('POST', '/export-destinations', {
  as: token, body: { name: 'otel', endpointUrl: 'https://otel.example.com', envSlug: 'prod', signals: ['traces'] }, expect: 201,
});
const destId = dest.destinationId ?? dest.id;
await call('GET', '/export-destinations', { as: token });
await call('GET', `/export-destinations/${destId}`, { as: token });
await call('PATCH', `/export-destinations/${destId}`, { as: token, body: { active: false } });
await call('GET', `/export-destinations/${destId}/deliveries`, { as: token });

// Audit and the instance admin's routes.
await call('GET', '/audit-logs?limit=5', { as: token });
await call('GET', '/audit-logs/verify', { as: token });
await call('GET', '/admin/users?limit=5', { as: adminToken });
await call('GET', '/admin/access-requests', { as: adminToken });
await call('GET', '/admin/plugins', { as: adminToken });
await call('GET', '/users', { as: adminToken });
await call('PUT', `/users/${user.id}`, { as: token, body: { last_name: 'Lovelace' } });
await call('GET', '/admin/users', { as: token, expect: 403 });

// OTLP/JSON and MCP.
const span = {
  resourceSpans: [{
    resource: { attributes: [{ key: 'service.name', value: { stringValue: 'tour' } }] },
    scopeSpans: [{ spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'chat',
      startTimeUnixNano: String(BigInt(now.getTime()) * 1000000n), endTimeUnixNano: String(BigInt(now.getTime() + 5) * 1000000n), kind: 1 }] }],
  }],
};
await call('POST', '/v1/traces', { as: publishKey, headers: { 'x-channel-id': channel.channelId }, body: span });
await call('POST', '/v1/traces', { as: publishKey, body: span, expect: 400 });
await call('POST', '/mcp', {
  as: readKey, headers: { accept: 'application/json, text/event-stream' },
  body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tour', version: '1' } } },
});
await call('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, expect: 401 });

// The deletes, last.
await call('DELETE', `/export-destinations/${destId}`, { as: token, expect: 204 });
await call('DELETE', `/webhooks/endpoints/${hookId}`, { as: token, expect: 204 });
await call('DELETE', `/v2/alerts/${alertId}`, { as: token, expect: 204 });
await call('DELETE', `/spend-policies/${policyId}`, { as: token, expect: 204 });
await call('DELETE', `/moderation/rules/${rule.ruleId ?? rule.id}`, { as: token, expect: 204 });
await call('DELETE', `/environments/${env.environmentId}`, { as: token, expect: 204 });
await call('DELETE', `/api-keys/${spare.id}`, { as: token, expect: 204 });
await call('DELETE', `/channel/${channel2.channelId}`, { as: token, headers: tenant, expect: 204 });
await call('DELETE', `/apps/${app.appId}`, { as: token, headers: tenant, expect: 204 });
await call('DELETE', `/organizations/${orgId}`, { as: token, expect: 204 });
await call('POST', '/auth/logout', { body: { refresh_token: switched.refresh_token }, expect: 204 });

const all = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
const missed = all.filter((id) => !v.seen.has(id));
console.log(`${v.count} exchanges validated; ${v.seen.size} of ${all.length} operations reached`);
if (missed.length) console.log(`not reached by the tour (covered by generated.mjs): ${missed.join(', ')}`);
for (const m of unexpected) console.log(`unexpected status: ${m}`);
for (const m of v.violations) console.log(`violation: ${m}`);
process.exit(v.violations.length || unexpected.length ? 1 : 0);
