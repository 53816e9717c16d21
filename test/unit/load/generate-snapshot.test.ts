import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { generateSnapshotModule } from '../../../src/load/generate-snapshot.js';
import { DEFAULTS, stateOptions } from '../../../src/server/config.js';

it('src/generated/bundled-snapshot.ts is what the spec and fixtures give now (run `npm run generate`)', async () => {
  const committed = await readFile(new URL('../../../src/generated/bundled-snapshot.ts', import.meta.url), 'utf8');
  expect(committed).toBe(await generateSnapshotModule(stateOptions(DEFAULTS)));
});
