// Exports three spans of one trace to agent-eventsd through the official OpenTelemetry
// JS SDK, configured as any application would: the OTLP/HTTP exporter pointed at
// <AEV_OTLP_URL>/v1/traces with the API key and channel as headers. Prints the trace and
// span ids as JSON; exits non-zero if the export did not succeed.
//   AEV_OTLP_URL, AEV_API_KEY, AEV_CHANNEL_ID, AEV_ENCODING (proto | json), AEV_GZIP (1 | 0)
import { trace, SpanStatusCode, context } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Resource } from '@opentelemetry/resources';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const options = {
  url: `${env('AEV_OTLP_URL')}/v1/traces`,
  headers: { 'x-api-key': env('AEV_API_KEY'), 'x-channel-id': env('AEV_CHANNEL_ID') },
  compression: process.env.AEV_GZIP === '1' ? 'gzip' : 'none',
};
const exporter = env('AEV_ENCODING') === 'proto' ? new ProtoExporter(options) : new JsonExporter(options);

// Record what the exporter reports, so a refused export fails the test.
const results = [];
const originalExport = exporter.export.bind(exporter);
exporter.export = (spans, done) =>
  originalExport(spans, (result) => {
    results.push(result);
    done(result);
  });

const provider = new BasicTracerProvider({
  resource: new Resource({ 'service.name': 'otel-sdk-test', 'deployment.environment': 'ci' }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
provider.register?.();
const tracer = provider.getTracer('agent-events-test', '1.0.0');

const spans = [];
const root = tracer.startSpan('invoke_agent planner', {
  attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'planner' },
});
const rootContext = trace.setSpan(context.active(), root);
const chat = tracer.startSpan(
  'chat gpt-4o',
  {
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.agent.name': 'planner',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.system': 'openai',
      'gen_ai.usage.input_tokens': 1000,
      'gen_ai.usage.output_tokens': 500,
      'gen_ai.response.finish_reasons': ['stop'],
      'app.retries': 2,
    },
  },
  rootContext,
);
chat.end();
const tool = tracer.startSpan(
  'execute_tool search',
  { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search' } },
  rootContext,
);
tool.setStatus({ code: SpanStatusCode.ERROR, message: 'search backend timed out' });
tool.end();
root.end();
for (const s of [root, chat, tool]) {
  const c = s.spanContext();
  spans.push({ name: s.name, spanId: c.spanId, parentSpanId: s.parentSpanId ?? s.parentSpanContext?.spanId ?? null });
}

await provider.forceFlush();
await provider.shutdown();
const failed = results.filter((r) => r.code !== 0);
console.log(JSON.stringify({ traceId: root.spanContext().traceId, spans, exports: results.length, failed: failed.length,
  error: failed.length ? String(failed[0].error) : null }));
process.exit(failed.length || results.length === 0 ? 1 : 0);
