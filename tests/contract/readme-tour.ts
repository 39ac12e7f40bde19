// The README's tour through a client generated from /openapi.json (openapi-typescript
// types + openapi-fetch), type-checked with tsc --strict before it runs: register, log in,
// an organization, an app and a channel, an API key, publish, list, the trace summary and
// the analytics breakdown. client.mjs generates ./schema.d.ts beside this file.
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const [base, suffix] = process.argv.slice(2);
const api = createClient<paths>({ baseUrl: base });

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what}: no answer body`);
  return value;
}

async function main(): Promise<void> {
  const username = `ts${suffix}`;
  const password = 'correct horse battery';
  const reg = await api.POST('/auth/register', { body: { email: `${username}@example.com`, username, password } });
  must(reg.data, 'register');

  const login = must((await api.POST('/auth/login', { body: { login: username, password } })).data, 'login');
  let auth = { Authorization: `Bearer ${login.access_token}` };

  const org = must(
    (await api.POST('/organizations', { body: { name: 'Acme Robotics', slug: `acme-${suffix}` }, headers: auth })).data,
    'organization',
  );
  auth = { Authorization: `Bearer ${must(org.access_token, 'organization tokens')}` };
  const app = must((await api.POST('/apps', { body: { name: 'support-bot' }, headers: auth })).data, 'app');
  const channel = must(
    (await api.POST('/apps/{appId}/channels', { params: { path: { appId: app.appId } }, body: { name: 'prod' }, headers: auth }))
      .data,
    'channel',
  );

  const key = must(
    (await api.POST('/api-keys', { body: { name: 'agent-prod', scopes: ['publish', 'subscribe', 'read'] }, headers: auth })).data,
    'api key',
  );
  const asKey = { 'X-API-Key': key.key };

  const published = must(
    (
      await api.POST('/event', {
        body: {
          identifier: 'reply', channel_id: Number(channel.channelId), eventType: 'agent.message', traceId: 't-1',
          payload: { role: 'assistant', text: 'hello' },
          metadata: { model: 'gpt-4o', usage: { input_tokens: 812, output_tokens: 64 } },
        },
        headers: asKey,
      })
    ).data,
    'publish',
  );
  const page = must(
    (await api.GET('/event/{channelId}/list', { params: { path: { channelId: channel.channelId } }, headers: asKey })).data,
    'list',
  );
  if (!page.data.some((e) => e.id === published.id)) throw new Error('the published event is not listed');
  const summary = must(
    (await api.GET('/traces/{traceId}/summary', { params: { path: { traceId: 't-1' } }, headers: asKey })).data,
    'trace summary',
  );
  if (summary.eventCount !== 1) throw new Error(`trace summary counts ${summary.eventCount} events`);
  const breakdown = must(
    (await api.GET('/analytics/breakdown', { params: { query: { dimension: 'model' } }, headers: asKey })).data,
    'breakdown',
  );
  console.log(`tour done: event ${published.id}, ${page.meta.total} listed, breakdown ${JSON.stringify(breakdown).slice(0, 120)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
