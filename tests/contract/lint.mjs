// Redocly CLI's lint (its recommended rules) on the daemon's /openapi.json: no error, and
// no warning beyond the checked-in list (redocly-warnings.txt, "<rule> <JSON pointer>" a
// line), which may only shrink: a listed warning that is gone fails too, so the list is
// kept exact. Usage: node lint.mjs <openapi.json> <redocly-warnings.txt>
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const [docFile, baselineFile] = process.argv.slice(2);
const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, 'node_modules/@redocly/cli/bin/cli.js');
let out;
try {
  out = execFileSync(process.execPath, [cli, 'lint', docFile, '--format=json', '--max-problems=100000'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
} catch (e) {
  out = e.stdout;  // exit 1 when there are errors; the JSON is still on stdout
}
const report = JSON.parse(out.slice(out.indexOf('{')));
const line = (p) => `${p.ruleId} ${(p.location && p.location[0] && p.location[0].pointer) || ''}`;
const errors = report.problems.filter((p) => p.severity === 'error');
const warnings = [...new Set(report.problems.filter((p) => p.severity === 'warn').map(line))].sort();
const baseline = existsSync(baselineFile)
  ? readFileSync(baselineFile, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
  : [];
let failed = false;
for (const e of errors) {
  console.log(`error: ${line(e)}: ${e.message}`);
  failed = true;
}
const known = new Set(baseline);
for (const w of warnings)
  if (!known.has(w)) {
    console.log(`new warning (fix it; the list may only shrink): ${w}`);
    failed = true;
  }
const now = new Set(warnings);
for (const w of baseline)
  if (!now.has(w)) {
    console.log(`fixed, remove it from ${baselineFile}: ${w}`);
    failed = true;
  }
console.log(`redocly lint: ${errors.length} errors, ${warnings.length} warnings (${baseline.length} listed)`);
process.exit(failed ? 1 : 0);
