import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli-helpers.js';

/**
 * What each entry of the package reaches, offline and in milliseconds (pack.test.ts proves the
 * same on the packed tarball when the registry is reachable): the types entries and the handlers
 * reach no Node API, Fastify or the Node side of the house, value or type, so that their
 * declarations type-check without @types/node and their code bundles for a browser.
 */

const SRC = path.join(ROOT, 'src');

/** Every module an entry reaches through its imports and re-exports (type-only ones too): src files and packages. */
async function reach(entry: string): Promise<{ files: string[]; packages: string[] }> {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (files.has(file)) return;
    files.add(file);
    const text = await readFile(path.join(SRC, file), 'utf8');
    for (const m of text.matchAll(
      /^\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'|^\s*import\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/gm,
    )) {
      const spec = (m[1] ?? m[2] ?? m[3]) as string;
      if (spec.startsWith('.'))
        await visit(path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), spec)).replace(/\.js$/, '.ts'));
      else packages.add(spec);
    }
  };
  await visit(entry);
  return { files: [...files].sort(), packages: [...packages].sort() };
}

const NODE_SIDE = /^(server|load|contract|cli)\//;

describe('the entries of the package reach only what they may', () => {
  it.each([
    ['.', 'index.ts', []],
    ['./types', 'types.ts', []],
    ['./fetch', 'adapters/fetch.ts', []],
    ['./msw', 'adapters/msw.ts', ['msw']],
  ])('%s (src/%s): no Node API, Fastify, server, load, contract or CLI', async (_entry, file, allowed) => {
    const { files, packages } = await reach(file);
    expect(files.filter((f) => NODE_SIDE.test(f))).toEqual([]);
    expect(packages).toEqual(allowed);
  });

  it('the check is real: /server reaches Fastify and Node', async () => {
    const { files, packages } = await reach('server/index.ts');
    expect(files.some((f) => f.startsWith('load/'))).toBe(true);
    expect(packages).toContain('fastify');
    expect(packages.some((p) => p.startsWith('node:'))).toBe(true);
  });
});
