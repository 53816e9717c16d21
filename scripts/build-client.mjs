// Builds packages/client/dist: the part of dist/ a frontend needs (the types, the core, the fetch
// and MSW handlers and the bundled snapshot), found by following the imports of the light entries
// through the built JavaScript and declarations, so the list cannot drift from the code. The build
// fails when that part imports a package other than msw: the client package has no dependencies
// (msw is its optional peer), and a frontend installing it gets no server, Swagger UI or checker
// (issue #34 §5). Run by scripts/build.mjs after tsc; runs alone after a build.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
const out = path.join(root, 'packages/client/dist');
const manifest = JSON.parse(readFileSync(path.join(root, 'packages/client/package.json'), 'utf8'));
/** The client's entries, as its package.json exports them: `./dist/adapters/fetch.js` → `adapters/fetch`. */
const ENTRIES = Object.values(manifest.exports)
  .map((target) => (typeof target === 'string' ? target : target.import))
  .filter((file) => file.startsWith('./dist/'))
  .map((file) => file.slice('./dist/'.length).replace(/\.js$/, ''));
/** The packages the client's code may import: its peer dependencies (it has no other). */
const PEERS = new Set(Object.keys(manifest.peerDependencies ?? {}));

// Static imports and re-exports (`import … from`, `export … from`, `import '…'`) and `import('…')`
// types and values: tsc's output, one statement a line.
const IMPORT =
  /^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

const files = new Set();
const packages = new Map();
/** Adds a built file of dist/ and everything it imports. */
function visit(rel) {
  if (files.has(rel)) return;
  const full = path.join(dist, rel);
  if (!existsSync(full)) throw new Error(`build-client: dist/${rel} is missing (run the build first)`);
  files.add(rel);
  for (const m of readFileSync(full, 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith('.')) {
      packages.set(spec, [...(packages.get(spec) ?? []), rel]);
      continue;
    }
    const target = path.relative(dist, path.resolve(path.dirname(full), spec));
    if (!target.endsWith('.js')) throw new Error(`build-client: dist/${rel} imports ${spec}, not a .js file`);
    // A module and its declarations go together: the types of the one are the other.
    visit(target);
    visit(target.replace(/\.js$/, '.d.ts'));
  }
}
for (const entry of ENTRIES) {
  visit(`${entry}.js`);
  visit(`${entry}.d.ts`);
}

/** The package a bare specifier names (`msw/node` → `msw`, `@scope/name/x` → `@scope/name`). */
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const foreign = [...packages].filter(([spec]) => !PEERS.has(packageOf(spec)));
if (foreign.length > 0) {
  process.stderr.write(
    `error: the client package (packages/client) may import only ${[...PEERS].join(', ')}; its code imports:\n` +
      foreign.map(([name, by]) => `  ${name} (from ${[...new Set(by)].map((f) => `dist/${f}`).join(', ')})\n`).join(''),
  );
  process.exit(1);
}

// Only what differs is written, and only what is no longer part of it removed: a build with nothing
// to do leaves the folder alone, so one running beside an `npm pack` of it (the package tests) never
// takes files away under it.
const same = (a, b) => existsSync(b) && readFileSync(a).equals(readFileSync(b));
for (const rel of [...files].sort()) {
  const from = path.join(dist, rel);
  const to = path.join(out, rel);
  if (same(from, to)) continue;
  mkdirSync(path.dirname(to), { recursive: true });
  cpSync(from, to);
}
const stale = existsSync(out) ? readdirSync(out, { recursive: true, withFileTypes: true }) : [];
for (const e of stale) {
  const rel = path.relative(out, path.join(e.parentPath, e.name));
  if (e.isFile() && !files.has(rel)) rmSync(path.join(out, rel));
}
// Deepest first: a folder emptied above goes, and then its parent if that is empty too.
for (const e of stale.filter((d) => d.isDirectory()).reverse()) {
  const dir = path.join(e.parentPath, e.name);
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}
