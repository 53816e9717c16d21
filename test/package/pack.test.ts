import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaCheckFingerprint } from '../../src/load/meta-check.js';
import { v31CheckFingerprint } from '../../src/load/oas-validate.js';
import { ROOT } from '../cli-helpers.js';
import { installedPackages, npmInstall, project, type Run, registryReachable, run, sizeOf } from './npm-project.js';

/**
 * The package as a user gets it (issue #12 §1 and §5): `npm pack`, the tarball installed into fresh
 * projects, and there the types, the bin, the entries in plain Node and an MSW test in vitest.
 *
 * Installs come from the npm registry. The toolchain the variants share (TypeScript 5.9 and the
 * newest, @types/node, vitest, msw) is installed once a day into the temporary folder and reused;
 * the projects that install the tarball are new every run: `bare`, outside it (no @types/node,
 * `npm install --omit=dev`: what a production install brings), and `app`, inside it (so it
 * resolves the toolchain as a project resolves its own devDependencies).
 */

// Outside the repository: a project under it would resolve the repository's node_modules.
// Outside the run's own temporary folder (test/global-temp.ts): the toolchain outlives a run.
const CACHE = path.join(process.env.WORKPLACE_STUB_OUTER_TMPDIR ?? tmpdir(), 'workplace-admin-stub-pack-cache');
const TOOLCHAIN: Record<string, string> = {
  ts59: 'npm:typescript@~5.9.3',
  tsnext: 'npm:typescript@latest',
  '@types/node': '^20.19.0',
  vitest: '^4.0.0',
  msw: '^2.0.0',
};
const DEV_ONLY = [
  'typescript',
  'tsx',
  'esbuild',
  'openapi-typescript',
  'msw',
  'vitest',
  '@types/node',
  'eslint',
  'playwright-core',
  'autocannon',
  '@stoplight/prism-cli',
];

/** Runs the tasks at most `limit` at a time (the machine may have two cores). */
async function limited<T>(limit: number, tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** The shared toolchain: installed into a temporary folder, then renamed into place (concurrent runs never see half of one). */
async function toolchain(): Promise<string> {
  const key = createHash('sha256').update(JSON.stringify(TOOLCHAIN)).digest('hex').slice(0, 8);
  const day = new Date().toISOString().slice(0, 10);
  const dir = path.join(CACHE, `pack-toolchain-${key}-${day}`);
  if (existsSync(path.join(dir, 'node_modules/.installed'))) return dir;
  await mkdir(CACHE, { recursive: true });
  for (const old of await readdir(CACHE))
    if (old.startsWith('pack-toolchain-') && !old.includes(`-${day}`))
      await rm(path.join(CACHE, old), { recursive: true, force: true });
  const partial = await mkdtemp(path.join(CACHE, 'partial-toolchain-'));
  await writeFile(
    path.join(partial, 'package.json'),
    JSON.stringify({ name: 'pack-toolchain', private: true, type: 'module', dependencies: TOOLCHAIN }, null, 2),
  );
  const r = await npmInstall(partial, []);
  if (r.code !== 0) throw new Error(`installing the toolchain failed:\n${r.output}`);
  await writeFile(path.join(partial, 'node_modules/.installed'), day);
  try {
    await rename(partial, dir);
  } catch {
    await rm(partial, { recursive: true, force: true }); // another run put one there first
  }
  return dir;
}

// A consumer's files: types alone, whose checks must fail if the types were `any`.
const TYPES_ONLY = `import type { Desk, DeskList, Page, paths } from 'workplace-admin-stub';
import type { components } from 'workplace-admin-stub/types';

export const desk = {
  url: 'http://h/api/v1/desk/1',
  pk: 1,
  building: 'S',
  floor: 1,
  number: '101',
  active: true,
  lead: false,
  ergonomic: false,
  held_today: false,
} as Desk;
export const heldToday: boolean = desk.held_today;
export const list: DeskList = { count: 1, next: null, previous: null, results: [desk] };
export const page: Page<components['schemas']['Desk']> = list;
export type DeskQuery = NonNullable<paths['/api/v1/desk']['get']['parameters']['query']>;
export const format: DeskQuery['format'] = 'api';
// @ts-expect-error: a desk has no colour (the types are the spec's, not any)
export const colour = desk.colour;
// @ts-expect-error: the number of a desk is a string
export const wrong: Desk['number'] = 101;
// @ts-expect-error: the deployment's buildings are S (Schaefers) and P (Park Place)
export const nowhere: Desk['building'] = 'Z';
`;

// Every runtime entry, typed as a Node project with msw (which needs the DOM lib) uses them.
const RUNTIME_API = `import type { Desk } from 'workplace-admin-stub';
import { StubCore, compileSnapshot } from 'workplace-admin-stub';
import { type CheckReport, loadContract, runCheck } from 'workplace-admin-stub/check';
import { bundledSnapshot, createFetchHandler, type FetchHandler } from 'workplace-admin-stub/fetch';
import { createHandlers } from 'workplace-admin-stub/msw';
import { buildApp, DEFAULTS, loadState, stateOptions } from 'workplace-admin-stub/server';
import { setupServer } from 'msw/node';

export const handle: FetchHandler = createFetchHandler({ pageSize: 10, baseUrl: 'https://staging.example.org' });
export const server = setupServer(...createHandlers({ snapshot: bundledSnapshot() }));
export const core = new StubCore(compileSnapshot(bundledSnapshot()), { pageSize: 10, trustProxy: false, allowedHosts: ['*'], fallbackHost: 'h', maxDelayMs: 0, cors: { mode: 'off' } });
export async function first(): Promise<Desk | undefined> {
  const res = await handle(new Request('https://staging.example.org/api/v1/desk'));
  return ((await res.json()) as { results: Desk[] }).results[0];
}
export async function app() {
  return buildApp(DEFAULTS, { current: await loadState(stateOptions(DEFAULTS)) });
}
export async function check(baseUrl: string): Promise<CheckReport> {
  return runCheck(await loadContract(DEFAULTS.specFile), { baseUrl } as Parameters<typeof runCheck>[1]);
}
`;

// Plain Node, no TypeScript loader: every entry a production install can import, used.
const PLAIN_NODE = `import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
const root = await import('workplace-admin-stub');
assert.equal(typeof root.StubCore, 'function');
assert.equal(typeof root.compileSnapshot, 'function');
await import('workplace-admin-stub/types');
const { createFetchHandler } = await import('workplace-admin-stub/fetch');
const res = await createFetchHandler({ pageSize: 10 })(new Request('https://app.example/api/v1/desk?format=api'));
assert.equal(res.status, 200);
assert.equal((await res.json()).next, 'https://app.example/api/v1/desk?format=api&page=2');
const snapshot = JSON.parse(await readFile('stub-snapshot.json', 'utf8'));
const custom = await createFetchHandler({ snapshot })(new Request('http://h/api/v1/desk/3'));
assert.equal((await custom.json()).pk, 3);
const { buildApp, DEFAULTS, loadState, stateOptions } = await import('workplace-admin-stub/server');
const app = await buildApp({ ...DEFAULTS, logLevel: 'silent' }, { current: await loadState(stateOptions(DEFAULTS)) });
const detail = await app.inject({ url: '/api/v1/desk/3', headers: { host: 'localhost:4010' } });
assert.equal(detail.statusCode, 200);
assert.equal(detail.json().url, 'http://localhost:4010/api/v1/desk/3');
// Only loopback hosts by default (DNS rebinding): Django's 400 page for another.
assert.equal((await app.inject({ url: '/api/v1/desk/3', headers: { host: 'attacker.example' } })).statusCode, 400);
await app.close();
const { exitCode, loadContract, runCheck } = await import('workplace-admin-stub/check');
assert.equal(typeof runCheck, 'function');
assert.equal(typeof exitCode, 'function');
assert.ok((await loadContract(DEFAULTS.specFile)).operations);
const pkg = await import('workplace-admin-stub/package.json', { with: { type: 'json' } });
console.log('plain node: ok', pkg.default.version);
`;

const PLAIN_NODE_MSW = `import { setupServer } from 'msw/node';
import { createHandlers } from 'workplace-admin-stub/msw';
const server = setupServer(...createHandlers());
server.listen({ onUnhandledRequest: 'error' });
const body = await (await fetch('http://localhost/api/v1/desk/3')).json();
server.close();
if (body.pk !== 3) throw new Error('unexpected ' + JSON.stringify(body));
console.log('plain node msw: ok');
`;

function tsconfig(moduleResolution: 'bundler' | 'nodenext', files: string[], extra: Record<string, unknown>): string {
  return JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module: moduleResolution === 'bundler' ? 'esnext' : 'nodenext',
      moduleResolution,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      ...extra,
    },
    files,
  });
}

const version = (JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const reachable = await registryReachable();
const offline = reachable !== undefined && process.env.CI !== 'true';
if (offline)
  console.warn(
    `test/package/pack.test.ts skipped: the npm registry cannot be reached (${reachable}). With CI=true this is a failure.`,
  );

describe.skipIf(offline)(
  'the package as a user gets it: npm pack, installed into fresh projects (issue #12 §1, §5)',
  () => {
    let work: string;
    let tools: string;
    let bare: string;
    let app: string;
    let packed: { files: { path: string }[] };
    const checks = new Map<string, Run>();
    let bareInstall = '';

    beforeAll(async () => {
      if (reachable !== undefined) throw new Error(`the npm registry cannot be reached (${reachable}), and CI=true`);
      work = await mkdtemp(path.join(tmpdir(), 'workplace-stub-pack-'));
      const [pack, toolsDir] = await Promise.all([
        run('npm', ['pack', '--json', '--pack-destination', work], ROOT, 180_000),
        toolchain(),
      ]);
      if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.output}`);
      packed = (
        JSON.parse(pack.output.slice(pack.output.indexOf('[\n'))) as { files: { path: string }[] }[]
      )[0] as typeof packed;
      tools = toolsDir;
      const tarball = path.join(work, `workplace-admin-stub-${version}.tgz`);
      bare = path.join(work, 'bare');
      app = await mkdtemp(path.join(tools, 'app-'));
      // Warnings too, for the engine check: what npm prints to a user.
      [bareInstall] = await Promise.all([
        project(bare, ['--omit=dev', '--loglevel=warn'], tarball),
        project(app, [], tarball),
      ]);

      await writeFile(path.join(bare, 'types-only.ts'), TYPES_ONLY);
      await writeFile(path.join(app, 'types-only.ts'), TYPES_ONLY);
      await writeFile(path.join(app, 'api.ts'), RUNTIME_API);
      // The README's examples, as a frontend project has them.
      for (const f of ['desk.test.ts', 'browser.ts'])
        await writeFile(path.join(app, f), await readFile(path.join(ROOT, 'examples/frontend', f)));
      // The project's own tsconfig.json: vite reads the nearest one, and none above may count.
      await writeFile(
        path.join(app, 'tsconfig.json'),
        tsconfig('bundler', ['desk.test.ts'], { lib: ['es2022', 'dom'], types: ['node'], skipLibCheck: true }),
      );
      await writeFile(path.join(bare, 'plain.mjs'), PLAIN_NODE);
      await writeFile(path.join(app, 'plain-msw.mjs'), PLAIN_NODE_MSW);
      const tasks: [string, () => Promise<Run>][] = [];
      for (const ts of ['ts59', 'tsnext']) {
        const tsc = path.join(tools, 'node_modules', ts, 'bin/tsc');
        for (const mr of ['bundler', 'nodenext'] as const) {
          // Without @types/node (none installed) and without the DOM lib; with @types/node. Library
          // files checked too (skipLibCheck off): the declarations must hold on their own.
          await writeFile(
            path.join(bare, `tsconfig.${ts}.${mr}.json`),
            tsconfig(mr, ['types-only.ts'], { lib: ['es2022'], types: [], skipLibCheck: false }),
          );
          await writeFile(
            path.join(app, `tsconfig.${ts}.${mr}.json`),
            tsconfig(mr, ['types-only.ts'], { lib: ['es2022'], types: ['node'], skipLibCheck: false }),
          );
          await writeFile(
            path.join(app, `tsconfig.api.${ts}.${mr}.json`),
            tsconfig(mr, ['api.ts', 'browser.ts', 'desk.test.ts'], {
              lib: ['es2022', 'dom', 'dom.iterable'],
              types: ['node'],
              skipLibCheck: true,
            }),
          );
          tasks.push([
            `types ${ts} ${mr} without @types/node`,
            () => run(process.execPath, [tsc, '-p', `tsconfig.${ts}.${mr}.json`], bare),
          ]);
          tasks.push([
            `types ${ts} ${mr} with @types/node`,
            () => run(process.execPath, [tsc, '-p', `tsconfig.${ts}.${mr}.json`], app),
          ]);
          tasks.push([
            `api ${ts} ${mr}`,
            () => run(process.execPath, [tsc, '-p', `tsconfig.api.${ts}.${mr}.json`], app),
          ]);
        }
      }
      tasks.push([
        'tsnext version',
        () => run(process.execPath, [path.join(tools, 'node_modules/tsnext/bin/tsc'), '--version'], app),
      ]);
      tasks.push(['bin version', () => run('npx', ['--no-install', 'workplace-stub', '--version'], bare)]);
      tasks.push([
        'plain node',
        async () => {
          const snap = await run(
            process.execPath,
            [path.join(bare, 'node_modules/workplace-admin-stub/dist/cli/main.js'), 'snapshot'],
            bare,
          );
          if (snap.code !== 0) return snap;
          await writeFile(path.join(bare, 'stub-snapshot.json'), snap.output);
          return run(process.execPath, ['plain.mjs'], bare);
        },
      ]);
      tasks.push(['plain node msw', () => run(process.execPath, ['plain-msw.mjs'], app)]);
      // The OpenAPI 3.1 schema check, precompiled by the build, is what the installed stub validates
      // with (not compiled on each start) wherever the install brings the Ajv and schema it was made from.
      const installed = (m: string) =>
        JSON.stringify(pathToFileURL(path.join(bare, 'node_modules/workplace-admin-stub/dist/load', m)).href);
      tasks.push([
        'precompiled checks',
        () =>
          run(
            process.execPath,
            [
              '--input-type=module',
              '-e',
              `const v = await import(${installed('oas-validate.js')}); const m = await import(${installed('meta-check.js')}); v.prepareValidation(); console.log(JSON.stringify({ origin: v.v31CheckOrigin, fingerprint: v.v31CheckFingerprint(), metaOrigin: m.metaCheckOrigin(), metaFingerprint: m.metaCheckFingerprint() }));`,
            ],
            bare,
          ),
      ]);
      tasks.push([
        'vitest',
        () =>
          run(
            process.execPath,
            [path.join(tools, 'node_modules/vitest/vitest.mjs'), 'run', '--root', app, '--dir', app],
            app,
          ),
      ]);
      const results = await limited(
        2,
        tasks.map(([, task]) => task),
      );
      tasks.forEach(([name], i) => checks.set(name, results[i] as Run));
    }, 300_000);

    afterAll(async () => {
      if (app) await rm(app, { recursive: true, force: true });
      if (work) await rm(work, { recursive: true, force: true });
    });

    const passed = (name: string) => {
      const r = checks.get(name);
      expect(r, name).toBeDefined();
      expect(r?.code, `${name}:\n${r?.output}`).toBe(0);
      return r?.output ?? '';
    };

    it('the tarball holds the built JavaScript with declarations, the spec, the fixtures, README and CHANGELOG: no source, tests or maps', async () => {
      const files = packed.files.map((f) => f.path);
      for (const f of [
        'README.md',
        'CHANGELOG.md',
        'package.json',
        'openapi/openapi.yaml',
        'fixtures/desk.json',
        'dist/cli/main.js',
      ])
        expect(files).toContain(f);
      expect(
        files.filter(
          (f) => !/^(dist|openapi|fixtures)\//.test(f) && !['README.md', 'CHANGELOG.md', 'package.json'].includes(f),
        ),
      ).toEqual([]);
      expect(files.filter((f) => /\.(ts|map|tsbuildinfo)$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
      for (const js of files.filter((f) => f.startsWith('dist/') && f.endsWith('.js')))
        expect(files, `${js} has its declarations`).toContain(js.replace(/\.js$/, '.d.ts'));
      for (const f of ['dist/load/oas31-check.cjs', 'dist/load/meta2020-check.cjs']) expect(files).toContain(f);
      const pkg = JSON.parse(
        await readFile(path.join(bare, 'node_modules/workplace-admin-stub/package.json'), 'utf8'),
      ) as { exports: Record<string, string | Record<string, string>> };
      expect(Object.keys(pkg.exports)).toEqual([
        '.',
        './types',
        './fetch',
        './msw',
        './server',
        './check',
        './package.json',
      ]);
      for (const [entry, target] of Object.entries(pkg.exports)) {
        for (const file of typeof target === 'string' ? [target] : Object.values(target))
          expect(files, `${entry} → ${file}`).toContain(file.replace(/^\.\//, ''));
      }
    });

    it('a production install (--omit=dev) brings the runtime dependencies only', async () => {
      const installed = await installedPackages(path.join(bare, 'node_modules'));
      const names = installed.map((p) => p.split('/node_modules/').pop() as string);
      for (const dev of DEV_ONLY) expect(names, `${dev} is not installed`).not.toContain(dev);
      expect(names).toContain('fastify');
      const bytes = await sizeOf(path.join(bare, 'node_modules'));
      console.log(
        `production install: ${installed.length} packages (the stub and ${installed.length - 1} dependencies), ${(bytes / 2 ** 20).toFixed(1)} MiB of files`,
      );
      expect(installed.length).toBeLessThan(100);
    });

    it('on this Node, npm warns of no engine in the tree the package brings (light-my-request pinned to ~6.6: cookie@2 declares Node 22)', () => {
      expect(bareInstall).toContain('added ');
      expect(bareInstall.split('\n').filter((l) => l.includes('EBADENGINE'))).toEqual([]);
    });

    it.each(
      ['ts59', 'tsnext'].flatMap((ts) =>
        (['bundler', 'nodenext'] as const).flatMap((mr) => [[ts, mr, 'without'] as const, [ts, mr, 'with'] as const]),
      ),
    )(
      "tsc (%s), moduleResolution %s, %s @types/node: `import type { Desk, paths } from 'workplace-admin-stub'` passes a strict check",
      (ts, mr, types) => {
        passed(`types ${ts} ${mr} ${types} @types/node`);
      },
    );

    it.each(['ts59', 'tsnext'].flatMap((ts) => (['bundler', 'nodenext'] as const).map((mr) => [ts, mr] as const)))(
      'tsc (%s), moduleResolution %s: the runtime entries (/fetch, /msw, /server, /check) and examples/frontend type-check in a project with @types/node and the DOM lib',
      (ts, mr) => {
        passed(`api ${ts} ${mr}`);
      },
    );

    it('the newest TypeScript is newer than 5.9', () => {
      expect(passed('tsnext version')).toMatch(/Version (?:[6-9]|\d{2,})\./);
    });

    it('`npx workplace-stub --version` prints the version', () => {
      expect(passed('bin version').trim().split('\n').pop()).toBe(version);
    });

    it('plain Node imports ., /types, /fetch, /server, /check (no TypeScript loader) and uses them, with a snapshot from `workplace-stub snapshot`', () => {
      expect(passed('plain node')).toContain(`plain node: ok ${version}`);
    });

    it('the installed stub validates a spec, and lints its schemas, with the checks the build precompiled (the Ajv and schemas they were made from installed)', () => {
      const installed = JSON.parse(passed('precompiled checks').trim().split('\n').pop() ?? '{}') as {
        origin?: string;
        fingerprint?: string;
        metaOrigin?: string;
        metaFingerprint?: string;
      };
      // The registry gives the production install the Ajv and schema this repository builds with, as
      // a rule; should a newer one come out, the installed stub compiles its own check instead (never
      // one made from another schema: test/unit/load/oas-validate.test.ts).
      expect(installed.origin).toBe(installed.fingerprint === v31CheckFingerprint() ? 'precompiled' : 'compiled');
      expect(installed.metaOrigin).toBe(
        installed.metaFingerprint === metaCheckFingerprint() ? 'precompiled' : 'compiled',
      );
    });

    it('plain Node imports /msw with msw installed', () => {
      expect(passed('plain node msw')).toContain('plain node msw: ok');
    });

    it("a vitest test with msw's setupServer(...createHandlers()) fetches the desk list and a desk detail (examples/frontend/desk.test.ts)", () => {
      expect(passed('vitest')).toMatch(/Tests\s+3 passed/);
    });
  },
);
