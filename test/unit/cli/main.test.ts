import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, LOOPBACK_HOSTS } from '../../../src/server/config.js';
import { catchOutput, exitOf, io, stopExit } from './io.js';

// src/cli/main.ts is the bin: it parses process.argv when imported. Imported here as
// `workplace-stub version`, which prints the version and starts nothing.
catchOutput();
stopExit();

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
};
const argv = process.argv;
process.argv = [argv[0] as string, 'workplace-stub', 'version'];
const write = process.stdout.write;
let printed = '';
process.stdout.write = ((s: string) => ((printed += s), true)) as typeof process.stdout.write;
const { configFromFlags } = await import('../../../src/cli/main.js');
process.stdout.write = write;
process.argv = argv;

type ServeFlags = Parameters<typeof configFromFlags>[0];
const flags = (over: Partial<ServeFlags> = {}): ServeFlags => ({
  port: DEFAULTS.port,
  host: DEFAULTS.host,
  pageSize: DEFAULTS.pageSize,
  trustProxy: false,
  allowedHosts: [...LOOPBACK_HOSTS],
  spec: DEFAULTS.specFile,
  fixtures: DEFAULTS.fixturesDir,
  seed: DEFAULTS.seed,
  generateCount: DEFAULTS.generateCount,
  cors: undefined,
  strictHandlers: false,
  journal: DEFAULTS.journal,
  maxSessions: DEFAULTS.maxSessions,
  watch: false,
  validateRequests: false,
  maxDelay: DEFAULTS.maxDelayMs,
  shutdownGrace: DEFAULTS.shutdownGraceMs,
  quiet: false,
  logFormat: 'pretty',
  ...over,
});
describe('workplace-stub (src/cli/main.ts)', () => {
  it('npm start and the bin’s shebang run node with the same flags, each one this node takes', () => {
    const start = /^node ((?:--\S+ )*)dist\/cli\/main\.js serve$/.exec(pkg.scripts.start ?? '')?.[1]?.trim();
    const shebang = /^#!\/usr\/bin\/env -S node ((?:--\S+ ?)*)$/
      .exec(readFileSync(new URL('../../../src/cli/main.ts', import.meta.url), 'utf8').split('\n')[0] ?? '')?.[1]
      ?.trim();
    expect(start).toBeTruthy();
    expect(shebang).toBe(start);
    const run = spawnSync(process.execPath, [...(start ?? '').split(' '), '-e', '0'], { encoding: 'utf8' });
    expect([run.status, run.stderr]).toEqual([0, '']);
  });

  it('`version` prints the package’s version', () => {
    expect(printed).toBe(`${pkg.version}\n`);
  });

  it('configFromFlags: the flags of serve as the configuration, checked', () => {
    const c = configFromFlags(
      flags({
        port: 0,
        pageSize: 7,
        quiet: true,
        maxDelay: 5,
        shutdownGrace: 9,
        tokens: 't.json',
        types: 'types.ts',
        logFormat: 'json',
      }),
    );
    expect(c).toMatchObject({
      port: 0,
      pageSize: 7,
      logLevel: 'silent',
      maxDelayMs: 5,
      shutdownGraceMs: 9,
      tokensFile: 't.json',
      typesFile: 'types.ts',
      logFormat: 'json',
    });
    expect(configFromFlags(flags()).logLevel).toBe('info');
  });

  it.each<[string, Partial<ServeFlags>, unknown]>([
    [
      'loopback origins by default, with those given',
      { corsOrigin: ['http://192.168.1.20:5173'] },
      { mode: 'stub', origins: 'loopback', extra: ['http://192.168.1.20:5173'] },
    ],
    ['--cors any', { cors: 'any' }, { mode: 'stub', origins: 'any', extra: [] }],
    ['--no-cors', { cors: false }, { mode: 'off' }],
    [
      '--frontend-origin',
      { frontendOrigin: 'https://app.team.lcog.org' },
      { mode: 'deployment', frontendOrigin: 'https://app.team.lcog.org' },
    ],
  ])('CORS: %s', (_name, over, want) => {
    expect(configFromFlags(flags(over)).cors).toEqual(want);
  });

  it.each<[string, Partial<ServeFlags>, string]>([
    [
      'two CORS policies',
      { cors: false, frontendOrigin: 'https://a.test' },
      'error: --no-cors and --frontend-origin exclude each other\n',
    ],
    [
      'values the configuration refuses: every one',
      { port: 70_000, pageSize: 0 },
      'error: port must be an integer from 0 to 65535 (got 70000); page size must be an integer from 1 to 100000 (got 0)\n',
    ],
  ])('exit 2: %s', async (_name, over, message) => {
    expect(await exitOf(() => configFromFlags(flags(over)))).toBe(2);
    expect(io.err).toBe(message);
  });
});
