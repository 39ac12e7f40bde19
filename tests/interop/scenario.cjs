// One instrumentation from npm, configured as its own docs say, calling the fake OpenAI server
// (fake_openai.cjs) and exporting OTLP/HTTP to agent-eventsd. One scenario per process: the
// instrumentations patch modules globally.
//
//   node scenario.cjs <openinference|openllmetry|otel-contrib|ai-sdk|langfuse|openai-agents>
//   AEV_OTLP_URL     base URL (the exporter posts to <base>/v1/traces, Langfuse to
//                    <base>/api/public/otel/v1/traces)
//   AEV_API_KEY, AEV_CHANNEL_ID
//   AEV_ENCODING     json | proto (protobuf);  AEV_GZIP 1 | 0
//
// Prints one JSON line: {"scenario", "exports", "failed", "error", "statuses"}; exits 1 when an
// export failed. The calls made: a chat completion (session s-<scenario>, user u-<scenario>
// where the convention has them), a streamed one with include_usage, one with a tool call
// and its result, and one the fake server answers with a 500.
'use strict';
const fakeOpenAI = require('./fake_openai.cjs');

const scenario = process.argv[2];
const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined) throw new Error(`${name} is not set`);
  return v;
};
const base = env('AEV_OTLP_URL');
const headers = { 'x-api-key': env('AEV_API_KEY'), 'x-channel-id': env('AEV_CHANNEL_ID') };
const encoding = env('AEV_ENCODING', 'json');
const gzip = env('AEV_GZIP', '0') === '1';
const session = `s-${scenario}`;
const user = `u-${scenario}`;

// Record what the exporter reports, so a refused export fails the scenario.
const results = [];
function recorded(exporter) {
  const original = exporter.export.bind(exporter);
  exporter.export = (spans, done) =>
    original(spans, (result) => {
      results.push(result);
      done(result);
    });
  return exporter;
}

function otlpExporter(url = `${base}/v1/traces`, extraHeaders = headers) {
  const options = { url, headers: extraHeaders, compression: gzip ? 'gzip' : 'none' };
  const { OTLPTraceExporter } =
    encoding === 'proto' ? require('@opentelemetry/exporter-trace-otlp-proto') : require('@opentelemetry/exporter-trace-otlp-http');
  return recorded(new OTLPTraceExporter(options));
}

function tracerProvider(processors) {
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } = require('@opentelemetry/resources');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': `interop-${scenario}`, 'deployment.environment.name': 'ci' }),
    spanProcessors: processors,
  });
  provider.register();
  return provider;
}

function simpleProvider() {
  const { SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-node');
  return tracerProvider([new SimpleSpanProcessor(otlpExporter())]);
}

const WEATHER_TOOL = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

// The four calls through the `openai` client.
async function openaiCalls(client, context = async (fn) => fn()) {
  const model = 'gpt-4o-mini';
  await context(() => client.chat.completions.create({ model, messages: [
    { role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Say hello.' }] }));
  const stream = await context(() => client.chat.completions.create({ model, stream: true,
    stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Stream a hello.' }] }));
  for await (const _ of stream) { /* drain */ }
  const first = await context(() => client.chat.completions.create({ model, tools: [WEATHER_TOOL],
    messages: [{ role: 'user', content: 'Weather in Paris?' }] }));
  const call = first.choices[0].message.tool_calls[0];
  await context(() => client.chat.completions.create({ model, tools: [WEATHER_TOOL], messages: [
    { role: 'user', content: 'Weather in Paris?' }, first.choices[0].message,
    { role: 'tool', tool_call_id: call.id, content: '{"temperature":21}' }] }));
  await context(() => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'please fail' }] }))
    .catch(() => {});
}

const scenarios = {
  // OpenInference (Arize Phoenix): session and user through @arizeai/openinference-core's context.
  async openinference(fake) {
    const provider = simpleProvider();
    const OpenAI = require('openai');
    const { OpenAIInstrumentation } = require('@arizeai/openinference-instrumentation-openai');
    const instrumentation = new OpenAIInstrumentation();
    instrumentation.setTracerProvider(provider);
    instrumentation.manuallyInstrument(OpenAI);
    const { context } = require('@opentelemetry/api');
    const { setSession, setUser } = require('@arizeai/openinference-core');
    const client = new OpenAI({ baseURL: fake.url, apiKey: 'test' });
    await openaiCalls(client, (fn) => context.with(setUser(setSession(context.active(), { sessionId: session }),
      { userId: user }), fn));
    return provider;
  },

  // OpenLLMetry's OpenAI instrumentation (traceloop).
  async openllmetry(fake) {
    const provider = simpleProvider();
    const OpenAI = require('openai');
    const { OpenAIInstrumentation } = require('@traceloop/instrumentation-openai');
    const instrumentation = new OpenAIInstrumentation({ traceContent: true });
    instrumentation.setTracerProvider(provider);
    instrumentation.manuallyInstrument(OpenAI.OpenAI);  // it patches OpenAI.Chat.Completions and friends
    await openaiCalls(new OpenAI({ baseURL: fake.url, apiKey: 'test' }));
    return provider;
  },

  // The OpenTelemetry contrib instrumentation (gen_ai.* semantic conventions).
  async 'otel-contrib'(fake) {
    const provider = simpleProvider();
    const { registerInstrumentations } = require('@opentelemetry/instrumentation');
    const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');
    registerInstrumentations({ tracerProvider: provider, instrumentations: [new OpenAIInstrumentation()] });
    const OpenAI = require('openai');  // after registering: the instrumentation hooks require
    await openaiCalls(new OpenAI({ baseURL: fake.url, apiKey: 'test' }));
    return provider;
  },

  // The Vercel AI SDK's own telemetry (experimental_telemetry), ai.* spans.
  async 'ai-sdk'(fake) {
    const provider = simpleProvider();
    const { generateText, streamText, tool, jsonSchema, stepCountIs } = require('ai');
    const { createOpenAI } = require('@ai-sdk/openai');
    const model = createOpenAI({ baseURL: fake.url, apiKey: 'test' }).chat('gpt-4o-mini');
    const telemetry = { isEnabled: true, functionId: 'interop-ai-sdk', metadata: { sessionId: session, userId: user } };
    await generateText({ model, prompt: 'Say hello.', experimental_telemetry: telemetry });
    const s = streamText({ model, prompt: 'Stream a hello.', experimental_telemetry: telemetry });
    for await (const _ of s.textStream) { /* drain */ }
    await generateText({ model, prompt: 'Weather in Paris?', experimental_telemetry: telemetry,
      stopWhen: stepCountIs(3),
      tools: { get_weather: tool({ description: 'Weather of a city',
        inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
        execute: async () => ({ temperature: 21 }) }) } });
    await generateText({ model, prompt: 'please fail', maxRetries: 0, experimental_telemetry: telemetry }).catch(() => {});
    return provider;
  },

  // Langfuse's SDK: its span processor exports to <base>/api/public/otel with Basic auth.
  async langfuse(fake) {
    const { LangfuseSpanProcessor } = require('@langfuse/otel');
    const processor = new LangfuseSpanProcessor({ publicKey: 'pk-lf-test', secretKey: env('AEV_API_KEY'),
      baseUrl: base, exportMode: 'immediate', environment: 'ci', release: 'r1',
      additionalHeaders: { 'x-channel-id': env('AEV_CHANNEL_ID') } });
    // The processor builds its own exporter (a SimpleSpanProcessor's in immediate mode): record its results.
    recorded(processor.processor._exporter);
    const provider = tracerProvider([processor]);
    const { startActiveObservation, propagateAttributes } = require('@langfuse/tracing');
    const OpenAI = require('openai');
    const client = new OpenAI({ baseURL: fake.url, apiKey: 'test' });
    await propagateAttributes({ userId: user, sessionId: session, tags: ['interop'], traceName: 'interop-langfuse' },
      async () => {
        const input = [{ role: 'user', content: 'Say hello.' }];
        await startActiveObservation('chat gpt-4o-mini', async (generation) => {
          generation.update({ model: 'gpt-4o-mini', input });
          const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: input });
          // As @langfuse/openai reports usage: the details apart, subtracted from input and output.
          const cached = r.usage.prompt_tokens_details?.cached_tokens ?? 0;
          const reasoning = r.usage.completion_tokens_details?.reasoning_tokens ?? 0;
          generation.update({ output: r.choices[0].message,
            usageDetails: { input: r.usage.prompt_tokens - cached, output: r.usage.completion_tokens - reasoning,
              input_cached_tokens: cached, output_reasoning_tokens: reasoning },
            costDetails: { total: 0.0005 } });
        }, { asType: 'generation' });
        await startActiveObservation('get_weather', async (span) => {
          span.update({ input: { city: 'Paris' }, output: { temperature: 21 } });
        }, { asType: 'tool' });
        await startActiveObservation('chat failing', async (generation) => {
          generation.update({ model: 'gpt-4o-mini', level: 'ERROR', statusMessage: 'the fake model failed' });
        }, { asType: 'generation' });
      });
    return provider;
  },

  // The OpenAI Agents SDK, traced through OpenInference's bridge: a triage agent with one
  // tool and a hand-off to a second agent.
  async 'openai-agents'(fake) {
    const provider = simpleProvider();
    const OpenAI = require('openai');
    const agents = require('@openai/agents');
    const { OpenAIAgentsInstrumentation } = require('@arizeai/openinference-instrumentation-openai-agents');
    new OpenAIAgentsInstrumentation({ tracerProvider: provider }).manuallyInstrument(agents);
    agents.setDefaultOpenAIClient(new OpenAI({ baseURL: fake.url, apiKey: 'test' }));
    agents.setOpenAIAPI('chat_completions');
    agents.setTracingDisabled(false);
    const getWeather = agents.tool({ name: 'get_weather', description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'],
        additionalProperties: false },
      strict: true, execute: async () => '{"temperature":21}' });
    const weather = new agents.Agent({ name: 'Weather', instructions: 'Answer with the weather.', model: 'gpt-4o-mini',
      tools: [getWeather] });
    const triage = new agents.Agent({ name: 'Triage', instructions: 'Hand weather questions off.', model: 'gpt-4o-mini',
      handoffs: [weather] });
    await agents.run(triage, 'Weather in Paris?');
    await agents.getGlobalTraceProvider?.().forceFlush?.();
    return provider;
  },
};

(async () => {
  if (!scenarios[scenario]) throw new Error(`unknown scenario ${scenario}`);
  if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;  // the Agents SDK traces nothing under test
  const fake = await fakeOpenAI.start();
  let provider;
  try {
    provider = await scenarios[scenario](fake);
    await provider.forceFlush();
    await provider.shutdown();
  } finally {
    fake.server.close();
  }
  const failed = results.filter((r) => r.code !== 0);
  console.log(JSON.stringify({ scenario, exports: results.length, failed: failed.length,
    error: failed.length ? String(failed[0].error) : null }));
  process.exit(failed.length || results.length === 0 ? 1 : 0);
})().catch((e) => {
  console.log(JSON.stringify({ scenario, exports: results.length, failed: -1, error: String(e && e.stack || e) }));
  process.exit(1);
});
