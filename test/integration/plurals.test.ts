import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, startCli } from '../cli-helpers.js';

/** A count followed by a plural noun written into a message, not through `count` (openapi/words.ts). */
const BARE_PLURAL =
  /\$\{[^{}]*\} (items|collections|operations|requests|answers|endpoints|violations|rules|sessions|files|connections|query parameter\(s\)|bytes)\b/;

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(full)));
    else if (e.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

describe('a count and its noun agree: "1 collection", "2 collections"', () => {
  it('no message of src/ puts a number before a plural noun but through count()', async () => {
    const found: string[] = [];
    for (const file of await sources(path.join(ROOT, 'src'))) {
      if (file.includes(`${path.sep}generated${path.sep}`)) continue;
      (await readFile(file, 'utf8')).split('\n').forEach((line, i) => {
        if (BARE_PLURAL.test(line)) found.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('a spec of one collection starts with "1 collection under …"', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'stub-plural-'));
    const mini = path.join(ROOT, 'test', 'fixtures', 'mini');
    const doc = parse(await readFile(path.join(mini, 'openapi.yaml'), 'utf8')) as { paths: Record<string, unknown> };
    for (const p of Object.keys(doc.paths)) if (!p.startsWith('/api/v1/stored')) delete doc.paths[p];
    const spec = path.join(dir, 'openapi.json');
    await writeFile(spec, JSON.stringify(doc));
    await cp(path.join(mini, 'fixtures'), path.join(dir, 'fixtures'), { recursive: true });
    const { child, output } = await startCli([
      '--spec',
      spec,
      '--fixtures',
      path.join(dir, 'fixtures'),
      '--port',
      '0',
      '--quiet',
    ]);
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(output()).toMatch(/ 1 collection under http/);
      expect(output()).not.toMatch(/\b1 collections\b/);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
