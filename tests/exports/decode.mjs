// Decodes one OTLP/HTTP protobuf request body with the OpenTelemetry JS packages'
// protobufjs code, generated from the official opentelemetry-proto definitions, and
// prints it as JSON (ids as lowercase hex). Usage: node decode.mjs traces|logs|metrics <body.bin>
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const root = require("@opentelemetry/otlp-transformer/build/src/generated/root.js");
const [signal, file] = process.argv.slice(2);
const collector = root.opentelemetry.proto.collector;
const types = {
  traces: collector.trace.v1.ExportTraceServiceRequest,
  logs: collector.logs.v1.ExportLogsServiceRequest,
  metrics: collector.metrics.v1.ExportMetricsServiceRequest,
};
const type = types[signal];
if (!type) {
  console.error(`unknown signal ${signal}: traces, logs or metrics`);
  process.exit(2);
}
const message = type.decode(readFileSync(file));
const json = type.toObject(message, { longs: String, enums: String, bytes: String, defaults: false });
const hex = (b64) => Buffer.from(b64, "base64").toString("hex");
for (const rs of json.resourceSpans ?? [])
  for (const ss of rs.scopeSpans ?? [])
    for (const s of ss.spans ?? []) {
      if (s.traceId) s.traceId = hex(s.traceId);
      if (s.spanId) s.spanId = hex(s.spanId);
      if (s.parentSpanId) s.parentSpanId = hex(s.parentSpanId);
    }
console.log(JSON.stringify(json));
