import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { generateTypes } from '../../../src/load/generate-types.js';
import { SPEC } from '../../helpers.js';

it('src/generated/openapi.ts is what the spec generates now (run `npm run generate`)', async () => {
  const committed = await readFile(new URL('../../../src/generated/openapi.ts', import.meta.url), 'utf8');
  expect(committed).toBe(await generateTypes(SPEC));
});
