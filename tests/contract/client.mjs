// (c) A TypeScript client generated from the daemon's /openapi.json runs the README's tour:
// openapi-typescript writes the types, tsc --strict checks readme-tour.ts against them
// (a document that no longer matches the tour's calls fails here, at compile time), and
// the compiled tour runs against the daemon.
// Usage: node client.mjs <openapi.json> <work dir> <baseUrl> ...
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const [docFile, work, base] = process.argv.slice(2);
const here = dirname(fileURLToPath(import.meta.url));
mkdirSync(work, { recursive: true });
const doc = JSON.parse(readFileSync(docFile, 'utf8'));
// The same command docs/api.md shows: npx openapi-typescript <url> -o schema.d.ts
writeFileSync(join(work, 'schema.d.ts'), astToString(await openapiTS(doc)));
copyFileSync(join(here, 'readme-tour.ts'), join(work, 'readme-tour.ts'));
if (!existsSync(join(work, 'node_modules'))) symlinkSync(join(here, 'node_modules'), join(work, 'node_modules'), 'dir');
writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({
  compilerOptions: {
    strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out',
    skipLibCheck: true, types: ['node'], lib: ['ES2022', 'DOM'], noUncheckedIndexedAccess: true,
  },
  files: ['readme-tour.ts', 'schema.d.ts'],
}));
// readme-tour imports './schema' (resolved to schema.d.ts by tsc); NodeNext wants the
// extension, so the copied file names it.
writeFileSync(join(work, 'readme-tour.ts'), readFileSync(join(work, 'readme-tour.ts'), 'utf8').replace("from './schema'", "from './schema.js'"));
const tsc = join(here, 'node_modules/typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', work], { encoding: 'utf8', stdio: 'pipe' });
} catch (e) {
  console.log(`tsc --strict failed:\n${e.stdout}${e.stderr}`);
  process.exit(1);
}
console.log('tsc --strict: the tour type-checks against the generated client');
process.argv = [process.argv[0], 'readme-tour.js', base, Date.now().toString(36)];
await import(pathToFileURL(join(work, 'out/readme-tour.js')).href);
