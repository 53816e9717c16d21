import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import * as refParserUrl from '@apidevtools/json-schema-ref-parser/dist/lib/util/url.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { bundle, forEachExternalRef } from '../../../src/load/bundle.js';
import { DEFAULT_LOAD_LIMITS } from '../../../src/load/limits.js';
import { folderOf } from '../../../src/load/read-confined.js';
import { confinedResolveOptions } from '../../../src/load/spec.js';
import { parseYamlText } from '../../../src/load/yaml-text.js';
import { ROOT } from '../../cli-helpers.js';
import { SPEC } from '../../helpers.js';

// json-schema-ref-parser's bundle step is patched at install (patches/: a linear inventory, paths
// made strings when needed, URL resolution memoized): its output must be the unpatched library's,
// byte for byte, whatever the spec's $refs look like. The unpatched library is the installed one
// with the patch taken back, in a folder of its own under node_modules (its own dependencies
// resolve from there).
const PACKAGE = '@apidevtools/json-schema-ref-parser';
type Unpatched = {
  bundle(path: string): Promise<unknown>;
  url: { resolve(from: string, to: string): string };
};
let unpatched: Unpatched;
let removeAfter = '';

async function loadUnpatched(): Promise<Unpatched> {
  const patchFile = (await readdir(path.join(ROOT, 'patches'))).find((f) =>
    f.startsWith('@apidevtools+json-schema-ref-parser+'),
  );
  if (!patchFile) throw new Error('no patch of json-schema-ref-parser in patches/');
  const root = await mkdtemp(path.join(ROOT, 'node_modules', '.unpatched-'));
  removeAfter = root;
  await cp(path.join(ROOT, 'node_modules', PACKAGE), path.join(root, 'node_modules', PACKAGE), { recursive: true });
  // patch(1), not git apply: inside the repository's work tree git applies nothing outside its index.
  execFileSync('patch', ['-R', '-p1', '-s', '-i', path.join(ROOT, 'patches', patchFile)], { cwd: root });
  const bundled = await readFile(path.join(root, 'node_modules', PACKAGE, 'dist/lib/bundle.js'), 'utf8');
  if (bundled.includes('(Patched')) throw new Error('the patch was not taken back');
  const require = createRequire(path.join(root, 'node_modules', PACKAGE, 'package.json'));
  const lib = require(path.join(root, 'node_modules', PACKAGE, 'dist/lib/index.js')) as {
    $RefParser: { bundle(path: string): Promise<unknown> };
  };
  const url = require(path.join(root, 'node_modules', PACKAGE, 'dist/lib/util/url.js')) as Unpatched['url'];
  return { bundle: (file) => lib.$RefParser.bundle(file), url };
}

// As loadSpec calls it as well: through the confined resolver, each file's value handed over
// when our reading of it is the bundler's own (src/load/spec.ts), not its text, with the external
// `$ref`s of that value as the pre-scan found them (the patch's `resolve.externalRefs`; `alter`
// changes them, to show they are read).
type ExternalRef = { ref: string; base: string };
async function both(
  root: string,
  alter?: (scanned: Map<string, ExternalRef[]>) => void,
): Promise<{ ours: unknown; theirs: unknown; handed: unknown }> {
  const settle = (p: Promise<unknown>) =>
    p.then(
      (v) => ({ value: v }),
      (e: Error) => ({ error: `${e.name}: ${e.message}` }),
    );
  const theirs = await settle(unpatched.bundle(root));
  const ours = await settle(bundle(new SwaggerParser(), root, {}));
  const handed = await settle(
    (async () => {
      const dir = path.dirname(root);
      const texts = new Map<string, string>();
      const values = new Map<string, unknown>();
      const scanned = new Map<string, ExternalRef[]>();
      for (const name of await readdir(dir, { recursive: true })) {
        if (!/\.(ya?ml|json)$/.test(name)) continue;
        const file = path.join(dir, name);
        const text = await readFile(file, 'utf8');
        texts.set(file, text);
        const read = parseYamlText(text, DEFAULT_LOAD_LIMITS);
        if (read.ok && read.asBundlerReads) {
          values.set(file, read.value);
          const url = refParserUrl.resolve(refParserUrl.cwd(), refParserUrl.fromFileSystemPath(file));
          const refs: ExternalRef[] = [];
          forEachExternalRef(read.value, `${url}#`, [], undefined, ($ref, base) =>
            refs.push({ ref: $ref.$ref, base: String(base) }),
          );
          scanned.set(url, refs);
        }
      }
      expect(values.size).toBeGreaterThan(0);
      alter?.(scanned);
      const options = confinedResolveOptions(
        await folderOf(dir, "the spec's folder"),
        DEFAULT_LOAD_LIMITS,
        texts,
        values,
      );
      return bundle(new SwaggerParser(), root, {
        ...options,
        resolve: { ...options.resolve, externalRefs: (url: string) => scanned.get(url) },
      });
    })(),
  );
  return { ours, theirs, handed };
}

function same(a: unknown, b: unknown): boolean {
  if (!isDeepStrictEqual(a, b)) return false;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return true; // a cycle (a circular $ref inlined): deep equality is the comparison
  }
}

// Every spec written goes under one temporary folder, removed at the end.
let base = '';
let made = 0;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'bundle-test-'));
  unpatched = await loadUnpatched();
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
  if (removeAfter && existsSync(removeAfter)) await rm(removeAfter, { recursive: true, force: true });
});
async function freshDir(): Promise<string> {
  const dir = path.join(base, String(made++));
  await mkdir(dir);
  return dir;
}

describe('the bundler patched at install: the library output, in linear time', () => {
  it.each([
    ['the bundled spec', SPEC],
    ['the mini spec', path.resolve('test/fixtures/mini/openapi.yaml')],
    ['the designer spec', path.resolve('test/fixtures/designer/openapi.yaml')],
  ])('%s', async (_name, file) => {
    const { ours, theirs, handed } = await both(file);
    expect(same(ours, theirs)).toBe(true);
    expect(same(handed, theirs)).toBe(true);
    expect((ours as { value?: unknown }).value).toBeDefined();
  });

  it('1,000 random three-file specs: chains, sub-pointers, whole files, cycles, extended refs, $defs', async () => {
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const keys = ['a', 'bb', 'definitions', '$defs', 'schemas', 'x', 'items', 'p~q', 'r/s', 'long_name_here', 'é'];
    const files = ['root.yaml', 'a.yaml', 'b.yaml'];
    let differing = 0;
    let failedAlike = 0;
    for (let round = 0; round < 1000; round++) {
      const dir = await freshDir();
      // Trees first, then some leaves turned into $refs to places that exist.
      const trees: Record<string, unknown>[] = [];
      const places: [number, string[]][] = [];
      const grow = (fileIndex: number, at: string[], depth: number): Record<string, unknown> => {
        const node: Record<string, unknown> = {};
        const n = 1 + rand(3);
        for (let i = 0; i < n; i++) {
          const k = keys[rand(keys.length)] as string;
          if (k in node) continue;
          places.push([fileIndex, [...at, k]]);
          node[k] =
            depth < 3 && rand(3) > 0
              ? grow(fileIndex, [...at, k], depth + 1)
              : rand(2) === 0
                ? 'leaf'
                : [{ type: 'string' }];
        }
        return node;
      };
      for (let f = 0; f < files.length; f++) trees.push(grow(f, [], 0));
      const nodeAt = (tree: unknown, at: string[]) =>
        at.reduce<unknown>(
          (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
          tree,
        );
      // A few popular targets (and places beneath them), referenced from many places at many depths.
      // Refs start in the root half of the time (what the root does not reach is not bundled).
      const inFile = (f: number) => places.filter((p) => p[0] === f);
      const pick = (list: [number, string[]][]) => list[rand(list.length)] as [number, string[]];
      const popular = Array.from({ length: 1 + rand(4) }, () => pick(rand(4) === 0 ? places : inFile(1 + rand(2))));
      const refs = 4 + rand(16);
      for (let r = 0; r < refs; r++) {
        const [from, at] = rand(2) === 0 ? pick(inFile(0)) : pick(places);
        const [to, target] =
          rand(4) > 0
            ? (popular[rand(popular.length)] as [number, string[]])
            : (places[rand(places.length)] as [number, string[]]);
        const parent = nodeAt(trees[from], at.slice(0, -1));
        if (!parent || typeof parent !== 'object' || Array.isArray(parent)) continue;
        const pointer = target.map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
        const whole = rand(6) === 0;
        const fileRef = to === from ? '' : `./${files[to]}`;
        const ref: Record<string, unknown> = { $ref: whole && to !== from ? fileRef : `${fileRef}#/${pointer}` };
        if (rand(5) === 0) ref.description = 'extended';
        (parent as Record<string, unknown>)[at[at.length - 1] as string] = ref;
      }
      const root = { openapi: '3.1.0', info: { title: 'r', version: '1' }, paths: {}, ...trees[0] };
      await writeFile(path.join(dir, 'root.yaml'), stringify(root));
      await writeFile(path.join(dir, 'a.yaml'), stringify(trees[1]));
      await writeFile(path.join(dir, 'b.yaml'), stringify(trees[2]));
      const { ours, theirs, handed } = await both(path.join(dir, 'root.yaml'));
      if (!same(ours, theirs)) differing++;
      if ('error' in (theirs as object) ? !('error' in (handed as object)) : !same(handed, theirs)) differing++;
      if ('error' in (theirs as object)) failedAlike++;
    }
    expect(differing).toBe(0);
    // Most specs bundle; the cases the library refuses are refused alike.
    expect(failedAlike).toBeLessThan(500);
  });

  it.each<[string, Record<string, string>]>([
    [
      // One $ref object reached by two paths of the same depth: the one under "definitions" is
      // crawled first, and wins over another $ref to the same value.
      'a $ref reached twice at the same depth, once under definitions',
      {
        'root.yaml':
          "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\naaaaaaaaaaa: {k: {$ref: './a.yaml#/Y'}}\ndefinitions: {k: {$ref: './a.yaml#/Y'}}\nr: {$ref: './a.yaml#/Y2'}\n",
        'a.yaml': "Y: {inner: {$ref: './b.yaml#/Z'}}\nY2: {deeper: {more: {$ref: './b.yaml#/Z'}}}\n",
        'b.yaml': 'Z: {type: object}\n',
      },
    ],
    [
      // An external $ref met again by a shorter path: its value is crawled again from there, and
      // the $refs inside it take the shorter path too.
      'an external $ref met again by a shorter path',
      {
        'root.yaml':
          "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nx: {y: {z: {$ref: './a.yaml#/Y'}}}\nt: {$ref: './a.yaml#/Y'}\ns: {s2: {$ref: './a.yaml#/Y3'}}\n",
        'a.yaml': "Y: {inner: {$ref: './b.yaml#/Z'}}\nY3: {a: {$ref: './b.yaml#/W'}}\n",
        'b.yaml': "Z: {q: {$ref: '#/Q'}}\nW: {b: {$ref: '#/Q'}}\nQ: {type: string}\n",
      },
    ],
    [
      // Two $refs to one value, at the same depth, by paths of the same length: the one crawled
      // first (members by the length of their key, the shorter first) is inlined, the other
      // points to it; written longer key first, and shorter first.
      'two $refs alike but for the order their members are crawled in',
      {
        'root.yaml':
          "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nP: {long: {k: {$ref: './a.yaml#/X'}}, s: {kkkk: {$ref: './a.yaml#/X'}}}\nQ: {s: {kkkk: {$ref: './a.yaml#/V'}}, long: {k: {$ref: './a.yaml#/V'}}}\n",
        'a.yaml': 'X: {type: string}\nV: {type: integer}\n',
      },
    ],
  ])('%s', async (_name, texts) => {
    const dir = await freshDir();
    for (const [name, text] of Object.entries(texts)) await writeFile(path.join(dir, name), text);
    const { ours, theirs, handed } = await both(path.join(dir, 'root.yaml'));
    expect((theirs as { value?: unknown }).value).toBeDefined();
    expect(ours).toEqual(theirs);
    expect(handed).toEqual(theirs);
  });

  it("reads each file's external $refs from the pre-scan's list, not from a second walk", async () => {
    const dir = await freshDir();
    await writeFile(
      path.join(dir, 'root.yaml'),
      "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nx: {$ref: './a.yaml#/Y'}\n",
    );
    await writeFile(path.join(dir, 'a.yaml'), "Y: {type: object, properties: {z: {$ref: './b.yaml#/Z'}}}\n");
    await writeFile(path.join(dir, 'b.yaml'), 'Z: {type: string}\n');
    const root = path.join(dir, 'root.yaml');
    const { theirs, handed } = await both(root);
    expect(handed).toEqual(theirs);
    // a.yaml's list emptied: b.yaml is never read, and its $ref cannot be resolved.
    const emptied = await both(root, (scanned) => {
      for (const [url, refs] of scanned) if (url.endsWith('/a.yaml')) refs.length = 0;
    });
    expect(emptied.handed).not.toEqual(theirs);
    expect(JSON.stringify(emptied.handed)).toMatch(/b\.yaml/);
  });

  it('3,000 paths sharing components and an external file: the same document (the bench times it)', async () => {
    const dir = await freshDir();
    const paths: Record<string, unknown> = {};
    const schemas: Record<string, unknown> = {
      Envelope: { type: 'object', properties: { count: { type: 'integer' } } },
    };
    const external: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) {
      external[`S${i}`] = { type: 'object', properties: { id: { type: 'integer' } } };
      schemas[`S${i}`] = { $ref: `./schemas.yaml#/S${i}` };
      schemas[`L${i}`] = {
        allOf: [
          { $ref: '#/components/schemas/Envelope' },
          { properties: { results: { items: { $ref: `#/components/schemas/S${i}` } } } },
        ],
      };
      paths[`/p${i}`] = {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: `#/components/schemas/L${i}` } } },
            },
          },
        },
      };
    }
    await writeFile(path.join(dir, 'schemas.yaml'), stringify(external));
    await writeFile(
      path.join(dir, 'root.yaml'),
      stringify({ openapi: '3.1.0', info: { title: 'big', version: '1' }, paths, components: { schemas } }),
    );
    const ours = await bundle(new SwaggerParser(), path.join(dir, 'root.yaml'), {});
    const theirs = await unpatched.bundle(path.join(dir, 'root.yaml'));
    expect(same(ours, theirs)).toBe(true);
    expect(Object.keys((ours as { paths: object }).paths)).toHaveLength(3000);
  });
});

describe("the library's URL resolution, memoized by the patch", () => {
  it('answers as the original for every base (any fragment) and reference, first time and memoized', async () => {
    const original = (from: string, to: string) => unpatched.url.resolve(from, to);
    const bases = [
      '/tmp/spec/openapi.yaml',
      '/tmp/a b/x.yaml',
      '/tmp/a%20b/x.yaml',
      'schemas/x.yaml',
      'https://h.example/p/q.yaml',
      'file:///tmp/s.yaml',
      '/tmp/with#hash/x.yaml',
      '',
      '#',
    ];
    const fragments = ['', '#', '#/a/b', '#/paths/~1api~1v1~1desk/get', '#x#y', '#/é/%20'];
    const refs = [
      '',
      '#',
      '#/components/schemas/A',
      '?q=1',
      'a.yaml',
      './a.yaml#/B',
      '../up.yaml',
      ' spaced.yaml ',
      'http://other.example/x.json#/y',
      '//host/p',
      '%2e%2e/x',
      'é.yaml',
      'a\\b.yaml',
      '/abs.yaml#',
      'c:/win.yaml',
    ];
    let compared = 0;
    for (let round = 0; round < 2; round++) {
      for (const base of bases) {
        for (const fragment of fragments) {
          for (const ref of refs) {
            let want: string | Error;
            let got: string | Error;
            try {
              want = original(base + fragment, ref);
            } catch (e) {
              want = e as Error;
            }
            try {
              got = refParserUrl.resolve(base + fragment, ref);
            } catch (e) {
              got = e as Error;
            }
            if (want instanceof Error) expect(got).toBeInstanceOf(Error);
            else expect(got, `${base + fragment} + ${ref}`).toBe(want);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(2 * bases.length * fragments.length * refs.length);
  });

  it('a reference that is a fragment: every printable ASCII character, and a few others, in every place', async () => {
    const original = (from: string, to: string) => unpatched.url.resolve(from, to);
    const chars = [
      ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
      '\t',
      '\n',
      '\u0000',
      '\u007f',
      'é',
      '\u3000',
    ];
    const bases = [
      '/tmp/spec/openapi.yaml#/paths/x',
      'https://h.example/p/q.yaml',
      'file:///tmp/s.yaml#/a',
      'schemas/x.yaml',
      'c:\\win\\x.yaml#/a',
      '/tmp/with#hash/x.yaml',
    ];
    let fast = 0;
    for (const base of bases) {
      for (const c of chars) {
        for (const ref of [`#${c}`, `#/a${c}b`, `#/components/schemas/A${c}`, `#${c}/x`, `#/${c}${c}`]) {
          expect(refParserUrl.resolve(base, ref), `${base} + ${JSON.stringify(ref)}`).toBe(original(base, ref));
          if (/^#[!-~]+$/.test(ref)) fast++;
        }
      }
    }
    expect(fast).toBeGreaterThan(1000);
  });
});
