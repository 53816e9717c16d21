// Writes generated items into a fixture file: `npm run fixtures -- --resource desk [--count N] [--seed N] [--force]`.
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../src/server/config.js';
import { writeFixture } from '../src/cli/write-fixture.js';

const { values } = parseArgs({
  options: {
    resource: { type: 'string' },
    count: { type: 'string' },
    seed: { type: 'string', default: String(DEFAULTS.seed) },
    spec: { type: 'string', default: DEFAULTS.specFile },
    fixtures: { type: 'string', default: DEFAULTS.fixturesDir },
    force: { type: 'boolean', default: false },
  },
});
const whole = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  if (!/^[0-9]+$/.test(v)) {
    process.stderr.write(`error: --${name} takes a whole number\n`);
    process.exit(2);
  }
  return Number(v);
};
if (!values.resource) {
  process.stderr.write('error: --resource NAME is required (the last segment of the collection path, e.g. desk)\n');
  process.exit(2);
}
const result = await writeFixture({
  specFile: values.spec,
  fixturesDir: values.fixtures,
  resource: values.resource,
  count: whole('count', values.count),
  defaultCount: DEFAULTS.generateCount,
  seed: whole('seed', values.seed) ?? DEFAULTS.seed,
  force: values.force,
});
if (!result.ok) {
  process.stderr.write(`error: ${result.error}\n`);
  process.exit(1);
}
process.stdout.write(`${result.count} items written to ${result.file}\n`);
