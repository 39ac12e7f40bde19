// Records the spans each scenario's instrumentation exports (OTLP/JSON, as sent) into
// tests/unit/fixtures/otlp/<scenario>.json, for the unit tests of the convention table
// (tests/unit/otlp_conventions_fixture_test.cpp). Run by hand after upgrading a package:
//   node tests/interop/record_fixtures.cjs [scenario ...]
'use strict';
const http = require('node:http');
const path = require('node:path');
const fs = require('node:fs');
const { execFile } = require('node:child_process');

const all = ['openinference', 'openllmetry', 'otel-contrib', 'ai-sdk', 'langfuse', 'openai-agents'];
const out = path.join(__dirname, '..', 'unit', 'fixtures', 'otlp');

async function record(scenario) {
  const resourceSpans = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      resourceSpans.push(...(JSON.parse(body).resourceSpans ?? []));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    // Asynchronously: this process's server must answer the exports meanwhile.
    const output = await new Promise((resolve, reject) =>
      execFile(process.execPath, [path.join(__dirname, 'scenario.cjs'), scenario], {
        env: { ...process.env, AEV_OTLP_URL: `http://127.0.0.1:${server.address().port}`, AEV_API_KEY: 'aes_fixture',
          AEV_CHANNEL_ID: '1', AEV_ENCODING: 'json', AEV_GZIP: '0' },
      }, (error, stdout, stderr) => (error ? reject(new Error(`${scenario}: ${stdout}${stderr}`)) : resolve(stdout))));
    process.stdout.write(output);
  } finally {
    server.close();
  }
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `${scenario}.json`), JSON.stringify({ resourceSpans }, null, 1) + '\n');
  console.log(`${scenario}: ${resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).length} spans`);
}

(async () => {
  for (const s of process.argv.length > 2 ? process.argv.slice(2) : all) await record(s);
})();
