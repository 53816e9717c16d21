// Regenerates what is generated from the spec and the fixtures: `npm run generate`.
//   src/generated/openapi.ts           the TypeScript types (openapi-typescript)
//   src/generated/bundled-snapshot.ts  the bundled snapshot, for the fetch and MSW handlers
// `npm run generate:types [-- --spec FILE --out FILE]` writes the types alone.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { generateSnapshotModule } from '../src/load/generate-snapshot.js';
import { generateTypes } from '../src/load/generate-types.js';
import { DEFAULTS, stateOptions } from '../src/server/config.js';

const { values } = parseArgs({
  options: {
    spec: { type: 'string', default: DEFAULTS.specFile },
    out: { type: 'string' },
    'types-only': { type: 'boolean', default: false },
  },
});
const out = values.out ?? new URL('../src/generated/openapi.ts', import.meta.url).pathname;
await writeFile(out, await generateTypes(values.spec));
process.stdout.write(`types written to ${out}\n`);
if (!values['types-only']) {
  const file = new URL('../src/generated/bundled-snapshot.ts', import.meta.url).pathname;
  await writeFile(file, await generateSnapshotModule(stateOptions(DEFAULTS)));
  process.stdout.write(`bundled snapshot written to ${file}\n`);
}
