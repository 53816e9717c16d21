import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import * as refParserUrl from '@apidevtools/json-schema-ref-parser/dist/lib/util/url.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { bundle, forEachExternalRef } from '../../../src/load/bundle.js';
import { DEFAULT_LOAD_LIMITS } from '../../../src/load/limits.js';
import { folderOf } from '../../../src/load/read-confined.js';
import { confinedResolveOptions } from '../../../src/load/spec.js';
import { parseYamlText } from '../../../src/load/yaml-text.js';
import { SPEC } from '../../helpers.js';
import { type Unpatched as UnpatchedCopy, unpatchedCopy } from './unpatched.js';

// json-schema-ref-parser's bundle step is patched at install (patches/: a linear inventory, paths
// made strings when needed, URL resolution memoized): its output must be the unpatched library's,
// byte for byte, whatever the spec's $refs look like. The unpatched library is the installed one
// with the patch taken back, in a folder of its own under node_modules (its own dependencies
// resolve from there).
const PACKAGE = '@apidevtools/json-schema-ref-parser';

/** The repository's own specs, each held to the published library by the patched one. */
export const REPOSITORY_SPECS: [string, string][] = [
  ['the bundled spec', SPEC],
  ['the mini spec', path.resolve('test/fixtures/mini/openapi.yaml')],
  ['the designer spec', path.resolve('test/fixtures/designer/openapi.yaml')],
];
/** A parser instance of the library: what a dereference leaves in it. */
export interface RefParser {
  dereference(schema: unknown, options: unknown): Promise<unknown>;
  readonly $refs: { readonly circular: boolean };
}
type Unpatched = {
  bundle(path: string): Promise<unknown>;
  url: { resolve(from: string, to: string): string };
  newParser(): RefParser;
};
let unpatched: Unpatched;
/** The library as published (the patch taken back), once the harness's beforeAll ran. */
export const published = (): Unpatched => unpatched;
let copy: UnpatchedCopy | undefined;

async function loadUnpatched(): Promise<Unpatched> {
  copy = await unpatchedCopy(
    PACKAGE,
    ['bundle.js', 'dereference.js', 'pointer.js', 'options.js'].map((f) => `dist/lib/${f}`),
  );
  const lib = copy.require('dist/lib/index.js') as {
    $RefParser: { bundle(path: string): Promise<unknown>; new (): RefParser };
  };
  const url = copy.require('dist/lib/util/url.js') as Unpatched['url'];
  return { bundle: (file) => lib.$RefParser.bundle(file), url, newParser: () => new lib.$RefParser() };
}

// As loadSpec calls it as well: through the confined resolver, each file's value handed over
// when our reading of it is the bundler's own (src/load/spec.ts), not its text, with the external
// `$ref`s of that value as the pre-scan found them (the patch's `resolve.externalRefs`; `alter`
// changes them, to show they are read).
type ExternalRef = { ref: string; base: string };
export async function both(
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

export function same(a: unknown, b: unknown): boolean {
  if (!isDeepStrictEqual(a, b)) return false;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return true; // a cycle (a circular $ref inlined): deep equality is the comparison
  }
}

/** A seeded generator of whole numbers below n (the same sequence for the same seed). */
export function seededRandom(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
}

// Every spec written goes under one temporary folder, removed at the end.
let base = '';
let made = 0;
/** Registers the harness's set-up and clean-up in the calling test file. */
export function useBundleHarness(): void {
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'bundle-test-'));
    unpatched = await loadUnpatched();
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
    await copy?.remove();
  });
}
export async function freshDir(): Promise<string> {
  const dir = path.join(base, String(made++));
  await mkdir(dir);
  return dir;
}
