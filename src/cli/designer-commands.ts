import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { rel } from '../load/paths.js';
import { DEFAULTS, stateOptions } from '../server/config.js';
import { colors } from '../server/log.js';
import { count } from '../openapi/words.js';

/*
 * The designer's tools, `fixtures` and `generate`: commands of the published bin
 * (`workplace-stub fixtures …`) and, with the same options and --help, the repository's
 * `npm run fixtures --` and `npm run generate --` (scripts/). Their modules load when they run.
 */

/** A whole number option's value, or commander's own error. */
export function whole(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError('not a whole number.');
  return Number(value);
}

/** The options every command that reads the spec shares (serve, snapshot, fixtures, generate). */
export const specOption = () =>
  new Option('--spec <file>', 'root file of the OpenAPI document')
    .env('STUB_SPEC')
    .default(DEFAULTS.specFile, 'the bundled openapi/openapi.yaml');
export const fixturesOption = (what: string) =>
  new Option('--fixtures <dir>', what).env('STUB_FIXTURES').default(DEFAULTS.fixturesDir, 'the bundled fixtures/');
export const seedOption = () =>
  new Option('--seed <n>', 'seed of generated data').env('STUB_SEED').default(DEFAULTS.seed).argParser(whole);
export const generateCountOption = (what: string) =>
  new Option('--generate-count <n>', what).env('STUB_GENERATE_COUNT').default(DEFAULTS.generateCount).argParser(whole);

/** One line on stderr, and the exit code (2: a bad command line). */
export function fail(message: string, code = 2): never {
  process.stderr.write(`${colors.red('error')}: ${message}\n`);
  process.exit(code);
}

interface FixturesFlags {
  resource: string;
  count?: number;
  seed: number;
  spec: string;
  fixtures: string;
  force: boolean;
}

/** `fixtures`: generated items of one resource written into its fixture file, for a designer to edit. */
export function fixturesCommand(cmd: Command): Command {
  return cmd
    .description('write generated items of one resource into <fixtures>/<resource>.json, to edit by hand')
    .requiredOption(
      '--resource <name>',
      'the resource: the last segment of its collection path (desk for /api/v1/desk)',
    )
    .addOption(
      new Option('--count <n>', 'how many items (default: its x-stub-count, else the default count)').argParser(whole),
    )
    .addOption(seedOption())
    .addOption(specOption())
    .addOption(fixturesOption('the folder to write the fixture into'))
    .option('--force', 'write over an existing fixture file', false)
    .action(async (flags: FixturesFlags) => {
      const { writeFixture } = await import('./write-fixture.js');
      const result = await writeFixture({
        specFile: flags.spec,
        fixturesDir: flags.fixtures,
        resource: flags.resource,
        count: flags.count,
        defaultCount: DEFAULTS.generateCount,
        seed: flags.seed,
        force: flags.force,
      });
      if (!result.ok) fail(result.error, 1);
      process.stdout.write(`${count(result.count, 'item')} written to ${rel(result.file)}\n`);
    });
}

interface GenerateFlags {
  spec: string;
  fixtures: string;
  seed: number;
  out: string;
  snapshot: string;
  typesOnly: boolean;
}

/**
 * `generate`: the spec's TypeScript types (openapi-typescript) and the snapshot module of the
 * fetch and MSW handlers, both from the same `--spec` (and `--fixtures`).
 */
export function generateCommand(cmd: Command): Command {
  return cmd
    .description(
      'write the TypeScript types of the spec (openapi-typescript) and the snapshot module of the fetch and MSW handlers',
    )
    .addOption(specOption())
    .addOption(fixturesOption('folder of <resource>.json fixtures, for the snapshot'))
    .addOption(seedOption())
    .option('--out <file>', 'where the types go', 'src/generated/openapi.ts')
    .option('--snapshot <file>', 'where the snapshot module goes', 'src/generated/bundled-snapshot.ts')
    .option('--types-only', 'write the types alone', false)
    .action(async (flags: GenerateFlags) => {
      const { generateTypes } = await import('../load/generate-types.js').catch((e: NodeJS.ErrnoException) =>
        e.code === 'ERR_MODULE_NOT_FOUND' && e.message.includes("'openapi-typescript'")
          ? fail('generate needs openapi-typescript (npm install --save-dev openapi-typescript)', 1)
          : Promise.reject(e),
      );
      const write = async (file: string, text: string) => {
        await mkdir(path.dirname(path.resolve(file)), { recursive: true });
        await writeFile(file, text);
      };
      try {
        await write(flags.out, await generateTypes(flags.spec));
        process.stdout.write(`types written to ${rel(flags.out)}\n`);
        if (flags.typesOnly) return;
        const { generateSnapshotModule } = await import('../load/generate-snapshot.js');
        const options = { ...stateOptions(DEFAULTS), specFile: flags.spec, fixturesDir: flags.fixtures };
        await write(flags.snapshot, await generateSnapshotModule({ ...options, seed: flags.seed }));
        process.stdout.write(`snapshot written to ${rel(flags.snapshot)}\n`);
      } catch (e) {
        const { printLoadError } = await import('../load/report.js');
        printLoadError(e);
        process.exit(1);
      }
    });
}

/** The designer's commands under the bin. */
export function addDesignerCommands(program: Command): void {
  fixturesCommand(program.command('fixtures'));
  generateCommand(program.command('generate'));
}

/**
 * One designer command run alone, as `npm run <name> --` runs it (scripts/): commander's usage
 * and errors, never a stack trace for an unknown option.
 */
export async function runAlone(make: (cmd: Command) => Command, usage: string, argv: readonly string[]): Promise<void> {
  const cmd = make(new Command(usage))
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(colors.red(str)) });
  try {
    await cmd.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
    throw e;
  }
}
