import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli-helpers.js';

/*
 * The shape of the house (../shared/house-style.md), held file by file: every import of every
 * source file is read, and each never below is checked against all of them.
 */

interface Source {
  /** Path under src/, with forward slashes. */
  readonly file: string;
  readonly text: string;
  /** Relative imports resolved to paths under src/ (`core/answer.ts`); packages as written. */
  readonly imports: readonly string[];
}

const SRC = path.join(ROOT, 'src');

async function sources(): Promise<Source[]> {
  const out: Source[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.name.endsWith('.ts')) {
        const text = await readFile(full, 'utf8');
        const specs = [...text.matchAll(/^(?:import|export)[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/gm)];
        const imports = specs.map((m) => {
          const spec = (m[1] ?? m[2]) as string;
          if (!spec.startsWith('.')) return spec;
          const resolved = path
            .relative(SRC, path.resolve(path.dirname(full), spec))
            .split(path.sep)
            .join('/');
          return resolved.replace(/\.js$/, '.ts');
        });
        out.push({ file: path.relative(SRC, full).split(path.sep).join('/'), text, imports });
      }
    }
  };
  await walk(SRC);
  return out;
}

/** Every cycle met by a depth-first walk of the import graph, each as its files in order. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      found.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  return found;
}

const files = await sources();
const layer = (f: string) => f.split('/')[0] ?? '';
const isPackage = (i: string) =>
  !i.includes('/') || !/^(core|openapi|load|server|adapters|contract|cli|generated|deployment)\//.test(i);
const local = (f: Source) => f.imports.filter((i) => !isPackage(i));
const inLayer = (name: string) => files.filter((f) => layer(f.file) === name);

/** The core's pure text helpers (Python's and Django's), which the contract may use: not answering. */
const CORE_HELPERS = /^core\/(python\/|django\/(urls|host)\.ts$)/;

describe('the layers point one way', () => {
  it.each(inLayer('openapi').map((f) => [f.file, f] as const))(
    '%s: the bottom layer imports only itself and its libraries',
    (_n, f) => {
      for (const i of local(f)) expect(layer(i), `${f.file} imports ${i}`).toBe('openapi');
      for (const i of f.imports.filter(isPackage))
        expect(/^(ajv|ajv-formats)(\/|$)/.test(i), `${f.file} imports ${i}`).toBe(true);
    },
  );

  it.each(inLayer('core').map((f) => [f.file, f] as const))(
    '%s: imports the core and the bottom layer only, nothing of Node or Fastify',
    (_n, f) => {
      for (const i of f.imports)
        expect(['core', 'openapi'].includes(layer(i)) && !isPackage(i), `${f.file} imports ${i}`).toBe(true);
      expect(f.text).not.toMatch(/\bBuffer\b|\bprocess\.|require\(|__dirname/);
    },
  );

  it('load never imports the contract, the server, the adapters or the CLI', () => {
    const wrong = inLayer('load').flatMap((f) =>
      local(f)
        .filter((i) => ['contract', 'server', 'adapters', 'cli'].includes(layer(i)))
        .map((i) => `${f.file} imports ${i}`),
    );
    expect(wrong).toEqual([]);
  });

  it("the contract imports the bottom layer, load's reading of a spec (and its limits) and the core's text helpers only", () => {
    const allowed = (i: string) =>
      ['contract', 'openapi'].includes(layer(i)) ||
      /^load\/(spec|errors|report|limits)\.ts$/.test(i) ||
      CORE_HELPERS.test(i);
    const wrong = inLayer('contract').flatMap((f) =>
      local(f)
        .filter((i) => !allowed(i))
        .map((i) => `${f.file} imports ${i}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the adapters import the core, the bottom layer and the generated snapshot, never the Node side', () => {
    for (const f of inLayer('adapters'))
      for (const i of f.imports)
        expect(/^(core|openapi|adapters|generated|deployment)\//.test(i) || i === 'msw', `${f.file} imports ${i}`).toBe(
          true,
        );
  });

  it('nothing imports the CLI; generated code imports nothing', () => {
    for (const f of files) {
      if (layer(f.file) !== 'cli') for (const i of local(f)) expect(layer(i), `${f.file} imports ${i}`).not.toBe('cli');
      if (layer(f.file) === 'generated') expect(local(f), f.file).toEqual([]);
    }
  });

  it('the fast fixture path (streaming scan, flat items) is reached through readFixture only', () => {
    const wrong = files.flatMap((f) =>
      local(f)
        .filter((i) => /^load\/(item-stream|flat-items)\.ts$/.test(i))
        .filter(() => !/^load\/(fixtures|item-stream|flat-items)\.ts$/.test(f.file))
        .map((i) => `${f.file} imports ${i}`),
    );
    expect(wrong).toEqual([]);
  });

  it('no circle: the imports between files form no cycle', () => {
    expect(cycles(new Map(files.map((f) => [f.file, local(f)])))).toEqual([]);
  });
});

describe('the architecture test catches what it is for', () => {
  it('a cycle of two files and one of three are found', () => {
    const graph = new Map([
      ['core/a.ts', ['core/b.ts']],
      ['core/b.ts', ['core/a.ts', 'core/c.ts']],
      ['core/c.ts', ['core/d.ts']],
      ['core/d.ts', ['core/e.ts']],
      ['core/e.ts', ['core/c.ts']],
    ]);
    expect(cycles(graph)).toEqual([
      'core/a.ts → core/b.ts → core/a.ts',
      'core/c.ts → core/d.ts → core/e.ts → core/c.ts',
    ]);
  });
});

describe("the deployment's handlers", () => {
  it("import the core's handler types only", () => {
    const wrong = inLayer('deployment').flatMap((f) =>
      local(f)
        .filter((i) => i !== 'core/stub/handler-types.ts')
        .map((i) => `${f.file} imports ${i}`),
    );
    expect(wrong).toEqual([]);
  });
});

/**
 * Files that declare types only (no code to run): exempt from the mirror, each with why. A file
 * listed here that gains code, or that gets a test, fails the second check.
 */
const TYPES_ONLY: Readonly<Record<string, string>> = {
  'core/stub/handler-types.ts': 'the handler API’s types; core/stub/handlers.test.ts runs them',
  'core/stub/cors-policy.ts': 'the CORS policy’s type; core/stub/cors.test.ts runs its values',
};

/** The unit test files mirroring a source file: `<path>.test.ts`, or `<path>.<aspect>.test.ts`. */
async function unitTests(): Promise<Set<string>> {
  const out = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.name.endsWith('.test.ts'))
        out.add(
          path
            .relative(path.join(ROOT, 'test', 'unit'), full)
            .split(path.sep)
            .join('/'),
        );
    }
  };
  await walk(path.join(ROOT, 'test', 'unit'));
  return out;
}

describe('test/unit mirrors src file by file', async () => {
  const tests = await unitTests();
  const mirrored = (file: string) => {
    const stem = file.replace(/\.ts$/, '');
    return [...tests].some((t) => t === `${stem}.test.ts` || (t.startsWith(`${stem}.`) && t.endsWith('.test.ts')));
  };
  const sourcesToMirror = files.filter((f) => !f.file.startsWith('generated/'));

  it.each(sourcesToMirror.map((f) => [f.file] as const))('%s has its unit test', (file) => {
    if (Object.hasOwn(TYPES_ONLY, file)) return;
    expect(mirrored(file), `test/unit/${file.replace(/\.ts$/, '.test.ts')}`).toBe(true);
  });

  it.each(Object.keys(TYPES_ONLY).map((f) => [f] as const))('%s is exempt: types only, no test of its own', (file) => {
    const source = files.find((f) => f.file === file);
    expect(source, `${file} exists`).toBeDefined();
    // Nothing but imports, type declarations, comments and re-exports of types.
    const code = (source?.text ?? '')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '')
      .replace(/^(?:import|export) type [\s\S]*?;$/gm, '')
      .replace(/^export (?:interface|type) [\s\S]*?^}\s*$/gm, '')
      .replace(/^export type [^;]*;$/gm, '')
      .trim();
    expect(code).toBe('');
    expect(mirrored(file)).toBe(false);
  });

  it('every unit test file mirrors a source file (or is a helper beside them)', () => {
    const stems = new Set(files.map((f) => f.file.replace(/\.ts$/, '')));
    const orphans = [...tests].filter((t) => {
      if (t === 'architecture.test.ts' || t === 'docs.test.ts') return false;
      const parts = t.replace(/\.test\.ts$/, '').split('.');
      for (let n = parts.length; n > 0; n--) if (stems.has(parts.slice(0, n).join('.'))) return false;
      return true;
    });
    expect(orphans).toEqual([]);
  });
});
