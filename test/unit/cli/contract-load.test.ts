import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { contractOf, unknownOnly } from '../../../src/cli/contract-load.js';
import { DEFAULTS } from '../../../src/server/config.js';

const dir = await mkdtemp(path.join(tmpdir(), 'contract-load-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('contractOf and unknownOnly: the contract commands read their spec one way', () => {
  it('the bundled spec: its contract; --only checked against its collections', async () => {
    const contract = await contractOf(DEFAULTS.specFile);
    expect(contract?.operations.lists.map((l) => l.resource)).toContain('desk');
    if (contract === undefined) return;
    expect(unknownOnly(contract, ['desk'])).toBeUndefined();
    expect(unknownOnly(contract, ['desk', 'desks', 'nope'])).toBe(
      '--only names no collection of the spec: desks, nope',
    );
  });

  it('a spec that does not load: undefined, its problem printed with the file', async () => {
    const file = path.join(dir, 'broken.yaml');
    await writeFile(file, 'openapi: 3.1.0\npaths: [\n');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await contractOf(file)).toBeUndefined();
      expect(err.mock.calls.map(([t]) => String(t)).join('')).toContain('broken.yaml');
    } finally {
      err.mockRestore();
    }
  });
});
