#!/usr/bin/env -S node --max-semi-space-size=2 --no-parallel-scavenge --no-memory-reducer --expose-gc
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { CorsPolicy } from '../core/stub/cors.js';
import { DEFAULTS, LOOPBACK_HOSTS, resolveConfig, type StubConfig } from '../server/config.js';
import { colors } from '../server/log.js';
// Each command's module is loaded when the command runs: `--version` and `--help` need none of
// them (Fastify, Ajv, swagger-parser), and start at once.
import { addContractCommands } from './contract-commands.js';
import { list } from './contract-options.js';
import {
  addDesignerCommands,
  fail,
  fixturesOption,
  generateCountOption,
  seedOption,
  specOption,
  whole,
} from './designer-commands.js';

// A reader that went away (`workplace-stub … | head -1`): what is left to say is lost, nothing
// else. Node answers a write to a closed pipe with an 'error' event that, unheard, ends the process
// with a stack trace: a server keeps serving, a command finishes with its own exit code.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

function serveOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('-p, --port <n>', 'port to listen on').env('PORT').default(DEFAULTS.port).argParser(whole))
    .addOption(
      new Option('-H, --host <host>', 'address to listen on (127.0.0.1: this machine only)')
        .env('HOST')
        .default(DEFAULTS.host),
    )
    .addOption(
      new Option('--page-size <n>', 'items per page (DRF PAGE_SIZE)')
        .env('STUB_PAGE_SIZE')
        .default(DEFAULTS.pageSize)
        .argParser(whole),
    )
    .addOption(
      new Option(
        '--base-url <url>',
        "fixed base URL of every absolute url (default: the request's scheme and Host)",
      ).env('STUB_BASE_URL'),
    )
    .addOption(
      new Option('--trust-proxy', 'take the host and scheme from X-Forwarded-Host / X-Forwarded-Proto')
        .env('STUB_TRUST_PROXY')
        .default(false),
    )
    .addOption(
      new Option(
        '--allowed-hosts <list>',
        "hosts to answer, comma-separated, Django's ALLOWED_HOSTS syntax (.example.com, *)",
      )
        .env('STUB_ALLOWED_HOSTS')
        .default([...LOOPBACK_HOSTS], 'loopback only: .localhost, 127.0.0.1, [::1]')
        .argParser((v: string) => [...LOOPBACK_HOSTS, ...list(v)]),
    )
    .addOption(specOption())
    .addOption(fixturesOption('folder of <resource>.json fixtures'))
    .addOption(seedOption())
    .addOption(generateCountOption('items generated per collection without fixture (x-stub-count overrides)'))
    .addOption(
      new Option('--no-cors', 'no CORS header at all (by default: loopback origins echoed, credentials allowed)').env(
        'STUB_NO_CORS',
      ),
    )
    .addOption(new Option('--cors <any>', 'echo every Origin, null included (not only loopback ones)').choices(['any']))
    .addOption(
      new Option('--cors-origin <origin>', 'also echo this Origin (repeatable), e.g. http://192.168.1.20:5173')
        .env('STUB_CORS_ORIGINS')
        .argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), ...list(v)]),
    )
    .addOption(
      new Option(
        '--frontend-origin <url>',
        "CORS exactly as the deployment's own middleware answers with this FRONTEND_DOMAIN (e.g. https://app.team.lcog.org)",
      ).env('STUB_FRONTEND_ORIGIN'),
    )
    .addOption(
      new Option('--tokens <file>', 'a JSON array of valid token keys: any other gets 401 Invalid token.').env(
        'STUB_TOKENS',
      ),
    )
    .addOption(
      new Option(
        '--sessions <file>',
        'a JSON array of session keys (sessionid cookies) of logged-in users: their writes need CSRF',
      ).env('STUB_SESSIONS'),
    )
    .addOption(
      new Option('--handlers <file>', 'a module of handlers by operationId (.js, .mjs or .ts)').env('STUB_HANDLERS'),
    )
    .addOption(
      new Option('--strict-handlers', "a handler's answer its declaration refuses is a 500 with the violations")
        .env('STUB_STRICT_HANDLERS')
        .default(false),
    )
    .addOption(new Option('--now <time>', "a fixed time for handlers' context.now() (ISO 8601)").env('STUB_NOW'))
    .addOption(
      new Option('--journal <n>', 'requests kept for GET /__stub/requests, per session (0 for none)')
        .env('STUB_JOURNAL')
        .default(DEFAULTS.journal)
        .argParser(whole),
    )
    .addOption(
      new Option('--max-sessions <n>', 'sessions (X-Stub-Session) open at a time')
        .env('STUB_MAX_SESSIONS')
        .default(DEFAULTS.maxSessions)
        .argParser(whole),
    )
    .addOption(
      new Option('-w, --watch', 'reload the spec, its $ref files and the fixtures on change')
        .env('STUB_WATCH')
        .default(false),
    )
    .addOption(
      new Option(
        '--types <file>',
        'write the TypeScript types of the spec into this file at start-up (and, with --watch, when the spec changes)',
      ).env('STUB_TYPES'),
    )
    .addOption(
      new Option('--validate-requests', 'check query parameters against the spec (400 on violation)')
        .env('STUB_VALIDATE_REQUESTS')
        .default(false),
    )
    .addOption(
      new Option('--max-delay <ms>', 'upper bound of Prefer: delay=MS')
        .env('STUB_MAX_DELAY')
        .default(DEFAULTS.maxDelayMs)
        .argParser(whole),
    )
    .addOption(
      new Option(
        '--shutdown-grace <ms>',
        'after SIGTERM/SIGINT: how long requests in flight may take before their connections are closed',
      )
        .env('STUB_SHUTDOWN_GRACE')
        .default(DEFAULTS.shutdownGraceMs)
        .argParser(whole),
    )
    .addOption(new Option('-q, --quiet', 'no request log').env('STUB_QUIET').default(false))
    .addOption(
      new Option('--log-format <format>', 'request log format')
        .choices(['pretty', 'json'])
        .env('STUB_LOG_FORMAT')
        .default('pretty'),
    );
}

interface ServeFlags {
  port: number;
  host: string;
  pageSize: number;
  baseUrl?: string;
  trustProxy: boolean;
  allowedHosts: string[];
  spec: string;
  fixtures: string;
  seed: number;
  generateCount: number;
  cors: boolean | 'any' | undefined;
  corsOrigin?: string[];
  frontendOrigin?: string;
  tokens?: string;
  sessions?: string;
  handlers?: string;
  strictHandlers: boolean;
  now?: string;
  journal: number;
  maxSessions: number;
  watch: boolean;
  types?: string;
  validateRequests: boolean;
  maxDelay: number;
  shutdownGrace: number;
  quiet: boolean;
  logFormat: 'pretty' | 'json';
}

/** The CORS policy the flags ask for; two that exclude each other are an error of the command line. */
function corsPolicy(flags: ServeFlags): CorsPolicy {
  const asked = [
    flags.cors === false && '--no-cors',
    flags.cors === 'any' && '--cors any',
    flags.frontendOrigin !== undefined && '--frontend-origin',
  ].filter(Boolean);
  if (asked.length > 1) fail(`${asked.join(' and ')} exclude each other`);
  if (flags.cors === false) return { mode: 'off' };
  if (flags.frontendOrigin !== undefined) return { mode: 'deployment', frontendOrigin: flags.frontendOrigin };
  return { mode: 'stub', origins: flags.cors === 'any' ? 'any' : 'loopback', extra: flags.corsOrigin ?? [] };
}

export function configFromFlags(flags: ServeFlags): StubConfig {
  const result = resolveConfig({
    port: flags.port,
    host: flags.host,
    pageSize: flags.pageSize,
    baseUrl: flags.baseUrl,
    trustProxy: flags.trustProxy,
    allowedHosts: flags.allowedHosts,
    specFile: flags.spec,
    fixturesDir: flags.fixtures,
    seed: flags.seed,
    generateCount: flags.generateCount,
    cors: corsPolicy(flags),
    tokensFile: flags.tokens,
    sessionsFile: flags.sessions,
    handlersFile: flags.handlers,
    strictHandlers: flags.strictHandlers,
    now: flags.now,
    journal: flags.journal,
    maxSessions: flags.maxSessions,
    watch: flags.watch,
    typesFile: flags.types,
    validateRequests: flags.validateRequests,
    maxDelayMs: flags.maxDelay,
    shutdownGraceMs: flags.shutdownGrace,
    logLevel: flags.quiet ? 'silent' : 'info',
    logFormat: flags.logFormat,
  });
  if (!result.ok) fail(result.errors.join('; '));
  return result.config;
}

const program = new Command('workplace-stub')
  .description('Stub and contract checker for the Workplace Administration Service')
  .version(pkg.version, '-V, --version', 'print the version (also: workplace-stub version)')
  .showHelpAfterError(false)
  .exitOverride()
  .configureOutput({ outputError: (str, write) => write(colors.red(str)) });

const serveCommand = serveOptions(
  program.command('serve', { isDefault: true }).description('serve the stub (the default command)'),
);
// npx may take a `--version` for itself (`npx workplace-stub --version` printing npm's version,
// issue #34): a command, `-V`, or `--` before the flag reaches this program.
program
  .command('version')
  .description('print the version (under npx: `npx workplace-stub version` or `npx workplace-stub -- --version`)')
  .action(() => {
    process.stdout.write(`${pkg.version}\n`);
  });
program.addHelpText(
  'after',
  '\nUnder npx, npx takes --version for itself: write `npx workplace-stub version`, or `npx workplace-stub -- --version`.',
);
// `workplace-stub --help` lists the options of the default command too, with their defaults.
program.addHelpText(
  'after',
  () =>
    `\nOptions of serve (the default command, also \`workplace-stub serve --help\`):\n${serveCommand.createHelp().formatHelp(serveCommand, serveCommand.createHelp()).split('Options:\n')[1] ?? ''}`,
);
serveCommand.action(async (flags: ServeFlags) => {
  const result = await (await import('../server/serve.js')).serve(configFromFlags(flags));
  if (typeof result === 'number') process.exit(result);
});

program
  .command('snapshot')
  .description('print the snapshot the stub serves (spec and items, validated) as JSON, for the fetch and MSW handlers')
  .addOption(specOption())
  .addOption(fixturesOption('folder of <resource>.json fixtures'))
  .addOption(seedOption())
  .addOption(generateCountOption('items generated per collection without fixture'))
  .action(async (flags: { spec: string; fixtures: string; seed: number; generateCount: number }) => {
    process.exit(await (await import('./snapshot.js')).snapshot(flags));
  });

addContractCommands(program);
addDesignerCommands(program);

try {
  // npx passes a `--` on as it is (npm 11.19 measured): `npx workplace-stub -- --version` reaches
  // this program as `-- --version`, whose `--` would make `--version` an operand of serve.
  const args = process.argv.slice(2);
  await program.parseAsync(args[0] === '--' ? args.slice(1) : args, { from: 'user' });
} catch (e) {
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
  throw e;
}
