// Regenerates src/generated/openapi.ts from the spec: `npm run generate:types [-- --spec FILE]`.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../src/config.js';
import { generateTypes } from '../src/spec/generate-types.js';

const { values } = parseArgs({ options: { spec: { type: 'string', default: DEFAULTS.specFile }, out: { type: 'string' } } });
const out = values.out ?? new URL('../src/generated/openapi.ts', import.meta.url).pathname;
await writeFile(out, await generateTypes(values.spec));
process.stdout.write(`types written to ${out}\n`);
