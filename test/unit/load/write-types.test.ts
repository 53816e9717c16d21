import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTypes } from '../../../src/load/generate-types.js';
import { writeTypes } from '../../../src/load/write-types.js';

const MINI = path.resolve('test/fixtures/mini/openapi.yaml');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'types-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function written(file: string, spec = MINI): Promise<string[]> {
  const lines: string[] = [];
  await writeTypes(file, spec, (l) => lines.push(l));
  return lines;
}

describe('writeTypes: --types FILE follows the spec', () => {
  it('writes the types when the file differs, and leaves it alone when it holds them already', async () => {
    const file = path.join(dir, 'api.ts');
    expect(await written(file)).toEqual([`types written: ${file}`]);
    expect(await readFile(file, 'utf8')).toBe(await generateTypes(MINI));
    const before = (await stat(file)).mtimeMs;
    expect(await written(file)).toEqual([]);
    expect((await stat(file)).mtimeMs).toBe(before);
  });

  it.each<[string, (dir: string) => { file: string; spec?: string }, RegExp]>([
    [
      'a spec that cannot be loaded: why',
      (d) => ({ file: path.join(d, 'never.ts'), spec: path.join(d, 'absent.yaml') }),
      /^types not written: .*absent\.yaml: cannot read the file \(ENOENT\)$/,
    ],
    [
      'a file that cannot be written: why, and nothing half written left behind',
      (d) => ({ file: path.join(d, 'no-such-folder', 'api.ts') }),
      /^types not written: ENOENT: no such file or directory/,
    ],
  ])('%s', async (_name, make, want) => {
    const { file, spec } = make(dir);
    const lines = await written(file, spec);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(want);
    expect((await readdir(dir)).filter((n) => n.includes('.partial-'))).toEqual([]);
  });
});
