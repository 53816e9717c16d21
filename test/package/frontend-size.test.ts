import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli-helpers.js';
import { installedPackages, project, registryReachable, type Run, run, sizeOf } from './npm-project.js';

/**
 * What a frontend pays (issue #34 §5): packages/client, packed as `npm pack` packs it, installed
 * with msw into a fresh project, brings the types, the fetch handler and the MSW handlers and
 * nothing of the server, Swagger UI or the checker: at most 3 MB besides msw and what msw brings,
 * and no engine warning from its own tree. Slow (an `npm pack` with its build and an install from
 * the registry: 10 to 30 s); skipped, with a message, when the registry cannot be reached, except
 * with `CI=true`.
 */

const CLIENT = path.join(ROOT, 'packages/client');
const LIMIT = 3_000_000;
/** What serving, checking and their pages need; none of it may reach a frontend. */
const SERVER_SIDE = [
  'fastify',
  'light-my-request',
  'swagger-ui-dist',
  'ajv',
  'ajv-formats',
  'ajv-cli',
  '@apidevtools/swagger-parser',
  '@apidevtools/json-schema-ref-parser',
  'json-schema-faker',
  'js-yaml',
  'yaml',
  'commander',
  'sonic-boom',
  'workplace-admin-stub',
];

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

const manifest = async (dir: string) => JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/**
 * The installed packages `name` brings (itself included), as Node resolves them: a dependency of
 * a package is the nearest node_modules copy above it. Paths relative to node_modules.
 */
async function closure(nodeModules: string, name: string): Promise<Set<string>> {
  const found = new Set<string>();
  const resolveFrom = (from: string, dep: string): string | undefined => {
    for (let dir = from; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', dep);
      if (existsSync(path.join(candidate, 'package.json'))) return candidate;
      if (path.relative(path.dirname(nodeModules), dir) === '') return undefined;
    }
  };
  const visit = async (dir: string): Promise<void> => {
    const rel = path.relative(nodeModules, dir);
    if (found.has(rel)) return;
    found.add(rel);
    const m = await manifest(dir);
    const deps = { ...m.dependencies, ...m.optionalDependencies, ...m.peerDependencies };
    for (const dep of Object.keys(deps)) {
      const at = resolveFrom(dir, dep);
      if (at) await visit(at); // an optional one not installed
    }
  };
  const top = resolveFrom(path.dirname(nodeModules), name);
  if (top) await visit(top);
  return found;
}

// A consumer's files, checked by this repository's TypeScript in the project that installed the
// tarball (it resolves the package there): the copied declarations must hold on their own.
const TYPES_ONLY = `import type { Desk, DeskList, paths } from 'workplace-admin-stub-client';
import type { components } from 'workplace-admin-stub-client/types';
export type DeskQuery = NonNullable<paths['/api/v1/desk']['get']['parameters']['query']>;
export const count = (list: DeskList): number => list.count;
export const same = (desk: Desk): components['schemas']['Desk'] => desk;
// @ts-expect-error: a desk has no colour (the types are the spec's, not any)
export const colour = (desk: Desk) => desk.colour;
`;
const HANDLERS = `import type { HttpHandler } from 'msw';
import { bundledSnapshot, createFetchHandler, type FetchHandler } from 'workplace-admin-stub-client/fetch';
import { createHandlers } from 'workplace-admin-stub-client/msw';
export const handle: FetchHandler = createFetchHandler({ pageSize: 10, snapshot: bundledSnapshot() });
export const handlers: HttpHandler[] = createHandlers({ baseUrl: 'https://staging.example.org' });
`;
const tsconfig = (file: string, lib: string[], skipLibCheck: boolean) =>
  JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      verbatimModuleSyntax: true,
      lib,
      types: [],
      skipLibCheck,
    },
    files: [file],
  });

const rootVersion = (await manifest(ROOT)).version;
const reachable = await registryReachable();
const offline = reachable !== undefined && process.env.CI !== 'true';
if (offline)
  console.warn(
    `test/package/frontend-size.test.ts skipped: the npm registry cannot be reached (${reachable}). With CI=true this is a failure.`,
  );

describe('the client package (packages/client)', () => {
  it('has the version of the package beside it', async () => {
    expect((await manifest(CLIENT)).version).toBe(rootVersion);
  });
});

describe.skipIf(offline)('what a frontend installs: packages/client packed, with msw (issue #34 §5; slow)', () => {
  let work: string;
  let app: string;
  let install: string;
  let files: string[];
  let installed: string[];
  let fromMsw: Set<string>;
  let answer: string;
  let typesOnly: Run;
  let handlerTypes: Run;

  beforeAll(async () => {
    if (reachable !== undefined) throw new Error(`the npm registry cannot be reached (${reachable}), and CI=true`);
    work = await mkdtemp(path.join(tmpdir(), 'workplace-stub-client-'));
    // As a user packs it: its prepack builds (scripts/build.mjs, then build-client.mjs).
    const pack = await run('npm', ['pack', '--json', '--pack-destination', work], CLIENT, 180_000);
    if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.output}`);
    const packed = JSON.parse(pack.output.slice(pack.output.indexOf('[\n'))) as {
      filename: string;
      files: { path: string }[];
    }[];
    files = (packed[0]?.files ?? []).map((f) => f.path);
    app = path.join(work, 'app');
    // Warnings too: an engine warning is what a user sees.
    install = await project(
      app,
      ['--ignore-scripts', '--loglevel=warn', 'msw@^2'],
      path.join(work, packed[0]?.filename ?? ''),
    );
    const nodeModules = path.join(app, 'node_modules');
    installed = await installedPackages(nodeModules);
    fromMsw = await closure(nodeModules, 'msw');
    await writeFile(
      path.join(app, 'answer.mjs'),
      `import { createFetchHandler } from 'workplace-admin-stub-client/fetch';
import { createHandlers } from 'workplace-admin-stub-client/msw';
import { setupServer } from 'msw/node';
const res = await createFetchHandler()(new Request('http://localhost:5173/api/v1/desk'));
const server = setupServer(...createHandlers());
server.listen({ onUnhandledRequest: 'error' });
const viaMsw = await fetch('http://localhost:5173/api/v1/desk');
server.close();
console.log(JSON.stringify({ status: res.status, count: (await res.json()).count, msw: viaMsw.status, mswCount: (await viaMsw.json()).count }));
`,
    );
    const r = await run(process.execPath, ['answer.mjs'], app);
    answer = r.code === 0 ? (r.output.trim().split('\n').pop() ?? '') : r.output;
    await writeFile(path.join(app, 'types-only.ts'), TYPES_ONLY);
    await writeFile(path.join(app, 'handlers.ts'), HANDLERS);
    // Without @types/node or the DOM lib, library files checked too; the handlers with the DOM lib
    // (Request, Response), msw's own declarations not checked (they are msw's).
    await writeFile(path.join(app, 'tsconfig.types.json'), tsconfig('types-only.ts', ['es2022'], false));
    await writeFile(path.join(app, 'tsconfig.handlers.json'), tsconfig('handlers.ts', ['es2022', 'dom'], true));
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    [typesOnly, handlerTypes] = await Promise.all([
      run(process.execPath, [tsc, '-p', 'tsconfig.types.json'], app),
      run(process.execPath, [tsc, '-p', 'tsconfig.handlers.json'], app),
    ]);
  }, 300_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the tarball holds the light entries only: no server, loading, checker or CLI', () => {
    for (const f of ['package.json', 'README.md', 'dist/index.d.ts', 'dist/adapters/fetch.js', 'dist/adapters/msw.js'])
      expect(files).toContain(f);
    expect(files.filter((f) => /^dist\/(server|load|contract|cli)\//.test(f) || f === 'dist/check.js')).toEqual([]);
    for (const js of files.filter((f) => f.endsWith('.js')))
      expect(files, `${js} has its declarations`).toContain(js.replace(/\.js$/, '.d.ts'));
  });

  it('brings nothing besides msw and what msw brings, at most 3 MB', async () => {
    const own = installed.filter((p) => !fromMsw.has(p));
    expect(own).toEqual(['workplace-admin-stub-client']);
    expect(fromMsw.has('msw')).toBe(true); // the closure is real
    let bytes = 0;
    for (const p of own) bytes += await sizeOf(path.join(app, 'node_modules', p), true);
    const all = await sizeOf(path.join(app, 'node_modules'));
    console.log(
      `client install: ${(bytes / 1e6).toFixed(2)} MB in ${own.length} package(s) besides msw's ${fromMsw.size} (${(all / 1e6).toFixed(1)} MB in all)`,
    );
    expect(bytes).toBeGreaterThan(100_000);
    expect(bytes).toBeLessThanOrEqual(LIMIT);
  });

  it('has no HTTP server, Swagger UI or checker dependency anywhere in the tree', () => {
    const names = installed.map((p) => p.split('/node_modules/').pop() as string);
    for (const dep of SERVER_SIDE) expect(names, `${dep} is not installed`).not.toContain(dep);
  });

  it("npm warns of no engine for the package or anything outside msw's tree", () => {
    expect(install).toContain('added ');
    const warned = [...install.matchAll(/EBADENGINE\s+package: '((?:@[^/]+\/)?[^@']+)@/g)].map((m) => m[1] as string);
    const mswNames = new Set([...fromMsw].map((p) => p.split('/node_modules/').pop()));
    expect(warned.filter((name) => !mswNames.has(name))).toEqual([]);
  });

  it('the fetch handler and the MSW handlers answer GET /api/v1/desk: 200, 190 desks', () => {
    expect(JSON.parse(answer)).toEqual({ status: 200, count: 190, msw: 200, mswCount: 190 });
  });

  it('its declarations type-check in the project: the types without @types/node or the DOM lib, strict, library files too; the handlers with the DOM lib', () => {
    expect(typesOnly.code, typesOnly.output).toBe(0);
    expect(handlerTypes.code, handlerTypes.output).toBe(0);
  });
});
