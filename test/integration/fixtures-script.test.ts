import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ContractAjv } from '../../src/openapi/ajv.js';
import { loadSpec } from '../../src/load/spec.js';
import { ROOT } from '../cli-helpers.js';
import { SPEC } from '../helpers.js';

async function fixturesScript(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `${ROOT}scripts/fixtures.ts`, ...args], { cwd: ROOT });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out };
}

it('npm run fixtures writes valid generated items, never over a file without --force', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fixtures-script-'));
  const first = await fixturesScript(['--resource', 'desk', '--fixtures', dir, '--count', '4']);
  expect(first.code, first.out).toBe(0);
  const items = JSON.parse(await readFile(path.join(dir, 'desk.json'), 'utf8')) as Record<string, unknown>[];
  expect(items).toHaveLength(4);
  const ajv = new ContractAjv((await loadSpec(SPEC)).doc);
  for (const item of items) {
    expect(item.url).toBeUndefined();
    expect(
      ajv.validate('#/components/schemas/Desk', { url: `http://h/api/v1/desk/${String(item.pk)}?format=api`, ...item }),
    ).toEqual([]);
  }
  await writeFile(path.join(dir, 'desk.json'), '[]');
  const again = await fixturesScript(['--resource', 'desk', '--fixtures', dir]);
  expect(again.code).toBe(1);
  expect(again.out).toMatch(/exists; pass --force/);
  expect(await readFile(path.join(dir, 'desk.json'), 'utf8')).toBe('[]');
  const forced = await fixturesScript(['--resource', 'desk', '--fixtures', dir, '--force']);
  expect(forced.code).toBe(0);
  expect(JSON.parse(await readFile(path.join(dir, 'desk.json'), 'utf8'))).toHaveLength(25);
  const undescribed = await fixturesScript(['--resource', 'employee', '--fixtures', dir]);
  expect(undescribed.code).toBe(1);
  expect(undescribed.out).toMatch(/no described fields/);
});
