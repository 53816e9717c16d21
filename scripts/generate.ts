// Regenerates what is generated from the spec and the fixtures: `npm run generate`.
//   src/generated/openapi.ts           the TypeScript types (openapi-typescript)
//   src/generated/bundled-snapshot.ts  the bundled snapshot, for the fetch and MSW handlers
// `npm run generate:types [-- --spec FILE --out FILE]` writes the types alone. The same command as
// `workplace-stub generate` (src/cli/designer-commands.ts); `--help` lists its options.
import { generateCommand, runAlone } from '../src/cli/designer-commands.js';

await runAlone(generateCommand, 'npm run generate --', process.argv.slice(2));
