import { InvalidArgumentError } from 'commander';
import { DEFAULT_MAX_BODY } from '../contract/http.js';
import { DEFAULT_LOAD_LIMITS as LOADER_LIMITS } from '../load/limits.js';
import { DEFAULTS } from '../server/config.js';

// The bounds of the contract commands' options: a value outside is a bad argument (exit 2), not
// a run that hangs for a day (--timeout 99999999999) or checks nothing (--max-pages 0).
const BOUNDS = {
  timeout: { min: 1, max: 600_000, default: 10_000 },
  concurrency: { min: 1, max: 64, default: 4 },
  maxPages: { min: 1, max: 1_000_000, default: 1000 },
  // At most the largest file the stub loads: an answer past it could never be served or recorded.
  maxBody: { min: 1024, max: LOADER_LIMITS.maxFileBytes, default: DEFAULT_MAX_BODY },
  itemUrls: { min: 0, max: 1_000_000_000 },
  port: { min: 0, max: 65_535 },
} as const;

/** A whole number within [min, max]. */
export function bounded(min: number, max: number, unit = '') {
  return (value: string): number => {
    if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError('not a whole number.');
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`must be from ${min} to ${max}${unit}.`);
    return n;
  };
}

/** A size in bytes: `1048576`, `512k`, `16m` (powers of 1024). */
export function bytes(value: string): number {
  const m = /^([0-9]+)([kmg]?)i?b?$/i.exec(value.trim());
  if (!m) throw new InvalidArgumentError('a size in bytes, such as 1048576, 512k or 16m.');
  const n = Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] || ' ').toLowerCase());
  const { min, max } = BOUNDS.maxBody;
  if (n < min || n > max) throw new InvalidArgumentError(`must be from 1k to ${max / 1024 ** 2}m.`);
  return n;
}

export function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

// RFC 9110 §5.1 token; a value with CR, LF or NUL would be a second header (or a Node exception).
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `--header 'Name: value'` values as a record (names lower-case); an error message when one is malformed. */
export function parseHeaders(
  values: readonly string[],
  option = '--header',
): { ok: true; headers: Record<string, string> } | { ok: false; error: string } {
  const headers: Record<string, string> = {};
  for (const h of values) {
    const i = h.indexOf(':');
    const name = i > 0 ? h.slice(0, i).trim().toLowerCase() : '';
    const value = i > 0 ? h.slice(i + 1).trim() : '';
    if (!TOKEN.test(name))
      return { ok: false, error: `${option} takes "Name: value" (got a value without a header name before a colon)` };
    if (/[\r\n\0]/.test(value))
      return { ok: false, error: `${option} ${name}: a value cannot hold a line break or NUL` };
    if (name === 'host' || name === 'content-length' || name === 'transfer-encoding')
      return { ok: false, error: `${option} ${name}: set by the checker itself (the Host is the base URL's)` };
    headers[name] = value;
  }
  return { ok: true, headers };
}

/**
 * A deployment's base URL: absolute http(s), no query or fragment, and its root, not the API's
 * prefix (`https://host/api/v1/` would make every request `/api/v1/api/v1/…`). Answers what is
 * wrong with `value`; undefined when nothing is.
 */
export function checkBaseUrl(
  value: string,
  option: string,
  suggest: (root: string) => string = (root) => `${option} ${root}`,
): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${option} must be an absolute http(s) URL, such as https://staging.example.org`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `${option} must be an http(s) URL (got ${url.protocol})`;
  if (url.search !== '' || url.hash !== '') return `${option} takes the deployment's root, without a query or fragment`;
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/api\/v1$/.test(path)) {
    const root = `${url.origin}${path.replace(/\/api\/v1$/, '')}`;
    return `${option} is the deployment's root, without /api/v1 (the collections are at {base_url}/api/v1/…): try ${suggest(root)}`;
  }
  return undefined;
}

export const COMMANDS = ['check', 'proxy', 'record'] as const;
export type ContractCommand = (typeof COMMANDS)[number];

/**
 * What a setting's value is, as the command line, a variable and the config file give it:
 * `url` a deployment's root; `headers` "Name: value" lines (a `{name: value}` object in the file);
 * `origins` --cors-origin values; `path` a file (the config file's relative to its folder).
 */
export type Kind = 'url' | 'text' | 'path' | 'boolean' | 'integer' | 'size' | 'list' | 'choice' | 'headers' | 'origins';

/** One option of check, proxy or record: its flag, its name in the config file, its variable. */
export interface Setting {
  /** The name in the config file (and in the resolved settings). */
  readonly key: string;
  /** The command-line flag, as commander takes it. */
  readonly flag: string;
  readonly help: string;
  readonly commands: readonly ContractCommand[];
  readonly kind: Kind;
  /** The environment variable that gives it, below the command line and above the file. */
  readonly env?: string;
  /** The flag's parser, used on a variable's and the file's values too. */
  readonly parse?: (value: string) => unknown;
  readonly choices?: readonly string[];
  readonly default?: unknown;
  /** The default as --help shows it. */
  readonly shown?: string;
  readonly required?: boolean;
}

const CRAWLING: readonly ContractCommand[] = ['check', 'record'];
const SPEC_DEFAULT = 'the bundled openapi/openapi.yaml';

/**
 * Every option of the contract commands, in the order --help lists them: the one place where
 * each is named, parsed, defaulted and tied to its variable (contract-config.ts resolves them:
 * command line, then variable, then config file, then default).
 */
export const SETTINGS: readonly Setting[] = [
  {
    key: 'baseUrl',
    flag: '--base-url <url>',
    help: "the deployment's root, e.g. https://staging.example.org (not …/api/v1)",
    commands: CRAWLING,
    kind: 'url',
    env: 'WORKPLACE_STUB_BASE_URL',
    required: true,
  },
  {
    key: 'baseUrl',
    flag: '--upstream <url>',
    help: "the deployment's root, e.g. https://staging.example.org",
    commands: ['proxy'],
    kind: 'url',
    env: 'WORKPLACE_STUB_BASE_URL',
    required: true,
  },
  {
    key: 'out',
    flag: '--out <dir>',
    help: 'the folder of the fixtures (created when missing)',
    commands: ['record'],
    kind: 'path',
    required: true,
  },
  {
    key: 'force',
    flag: '--force',
    help: 'overwrite fixtures that exist',
    commands: ['record'],
    kind: 'boolean',
    default: false,
  },
  {
    key: 'port',
    flag: '-p, --port <n>',
    help: 'port to listen on (0: any free port)',
    commands: ['proxy'],
    kind: 'integer',
    parse: bounded(BOUNDS.port.min, BOUNDS.port.max),
    default: 4011,
  },
  {
    key: 'host',
    flag: '-H, --host <host>',
    help: 'address to listen on (127.0.0.1: this machine only)',
    commands: ['proxy'],
    kind: 'text',
    default: '127.0.0.1',
  },
  {
    key: 'spec',
    flag: '--spec <file>',
    help: 'root file of the OpenAPI document',
    commands: COMMANDS,
    kind: 'path',
    env: 'WORKPLACE_STUB_SPEC',
    default: DEFAULTS.specFile,
    shown: SPEC_DEFAULT,
  },
  {
    key: 'headers',
    flag: '--header <header>',
    help: "a header sent with every request to the base URL, e.g. 'Authorization: Token …' (repeatable; never reported or written)",
    commands: CRAWLING,
    kind: 'headers',
    env: 'WORKPLACE_STUB_HEADER',
  },
  {
    key: 'errors',
    flag: '--errors',
    help: 'answer 502 application/problem+json listing the violations instead of a broken answer',
    commands: ['proxy'],
    kind: 'boolean',
    default: false,
  },
  {
    key: 'corsOrigins',
    flag: '--cors-origin <origin>',
    help: 'an origin besides loopback ones (localhost, *.localhost, 127.0.0.1, [::1]) whose pages may read the answers, e.g. https://dev.example.org (repeatable; null never)',
    commands: ['proxy'],
    kind: 'origins',
  },
  {
    key: 'timeout',
    flag: '--timeout <ms>',
    help: `time-out of one request, ${BOUNDS.timeout.min} to ${BOUNDS.timeout.max} ms`,
    commands: COMMANDS,
    kind: 'integer',
    parse: bounded(BOUNDS.timeout.min, BOUNDS.timeout.max, ' ms'),
    default: BOUNDS.timeout.default,
  },
  {
    key: 'maxBody',
    flag: '--max-body <bytes>',
    help: 'largest answer read, on the wire and decompressed (1048576, 512k, 16m)',
    commands: COMMANDS,
    kind: 'size',
    parse: bytes,
    default: BOUNDS.maxBody.default,
    shown: '16m',
  },
  {
    key: 'concurrency',
    flag: '--concurrency <n>',
    help: 'requests at once',
    commands: CRAWLING,
    kind: 'integer',
    parse: bounded(BOUNDS.concurrency.min, BOUNDS.concurrency.max),
    default: BOUNDS.concurrency.default,
  },
  {
    key: 'maxPages',
    flag: '--max-pages <n>',
    help: 'pages crawled per collection at most; a collection cut short is not verified',
    commands: CRAWLING,
    kind: 'integer',
    parse: bounded(BOUNDS.maxPages.min, BOUNDS.maxPages.max),
    default: BOUNDS.maxPages.default,
  },
  {
    key: 'allowTruncated',
    flag: '--allow-truncated',
    help: 'a collection cut short by --max-pages is a note, not a failure',
    commands: CRAWLING,
    kind: 'boolean',
    default: false,
  },
  {
    key: 'only',
    flag: '--only <list>',
    help: 'collections, comma-separated (desk,employee)',
    commands: CRAWLING,
    kind: 'list',
    parse: list,
    default: [],
    shown: 'all',
  },
  {
    key: 'format',
    flag: '--format <format>',
    help: "the format parameter of every request ('none' for no parameter)",
    commands: CRAWLING,
    kind: 'choice',
    choices: ['api', 'json', 'none'],
    default: 'api',
  },
  {
    key: 'itemUrls',
    flag: '--item-urls <n>',
    help: 'item urls fetched per collection at most (0: none; each is checked to answer its item)',
    commands: ['check'],
    kind: 'integer',
    parse: bounded(BOUNDS.itemUrls.min, BOUNDS.itemUrls.max),
    shown: 'all',
  },
  {
    key: 'probes',
    flag: '--probes',
    help: "also check each collection's error contract: invalid page, page past the end, unknown format and pk, a write method, HEAD",
    commands: ['check'],
    kind: 'boolean',
    default: false,
  },
  {
    key: 'compare',
    flag: '--compare <url>',
    help: 'a second deployment (e.g. production): each checked on its own, then what differs between them is reported',
    commands: ['check'],
    kind: 'url',
    env: 'WORKPLACE_STUB_COMPARE_URL',
  },
  {
    key: 'compareHeaders',
    flag: '--compare-header <header>',
    help: 'a header for the --compare deployment only (repeatable; --header goes to --base-url only)',
    commands: ['check'],
    kind: 'headers',
    env: 'WORKPLACE_STUB_COMPARE_HEADER',
  },
  {
    key: 'failOnDrift',
    flag: '--fail-on-drift',
    help: 'with --compare: differences between the deployments fail the run (exit 1)',
    commands: ['check'],
    kind: 'boolean',
    default: false,
  },
  {
    key: 'json',
    flag: '--json',
    help: 'the report as JSON on stdout',
    commands: ['check'],
    kind: 'boolean',
    default: false,
  },
  {
    key: 'junit',
    flag: '--junit <file>',
    help: 'also write JUnit XML (its folder is created)',
    commands: ['check'],
    kind: 'path',
  },
  {
    key: 'junit',
    flag: '--junit <file>',
    help: 'at exit (SIGINT/SIGTERM), write the answers seen as JUnit XML',
    commands: ['proxy'],
    kind: 'path',
  },
];
