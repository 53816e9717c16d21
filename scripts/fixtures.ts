// Writes generated items into a fixture file: `npm run fixtures -- --resource desk [--count N] [--seed N] [--force]`.
// The same command as `workplace-stub fixtures` (src/cli/designer-commands.ts); `--help` lists its options.
import { fixturesCommand, runAlone } from '../src/cli/designer-commands.js';

await runAlone(fixturesCommand, 'npm run fixtures --', process.argv.slice(2));
