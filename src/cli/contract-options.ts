import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MAX_BODY } from '../contract/http.js';
import { LOADER_LIMITS } from '../contract/limits.js';

// The bounds of the contract commands' options: a value outside is a bad argument (exit 2), not
// a run that hangs for a day (--timeout 99999999999) or checks nothing (--max-pages 0).
export const BOUNDS = {
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

const collect = (v: string, prev: string[]) => [...prev, v];

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
 * prefix (`https://host/api/v1/` would make every request `/api/v1/api/v1/…`).
 */
export function checkBaseUrl(value: string, option: string): { ok: true; url: URL } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, error: `${option} must be an absolute http(s) URL, such as https://staging.example.org` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, error: `${option} must be an http(s) URL (got ${url.protocol})` };
  if (url.search !== '' || url.hash !== '')
    return { ok: false, error: `${option} takes the deployment's root, without a query or fragment` };
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/api\/v1$/.test(path)) {
    const root = `${url.origin}${path.replace(/\/api\/v1$/, '')}`;
    return {
      ok: false,
      error: `${option} is the deployment's root, without /api/v1 (the collections are at {base_url}/api/v1/…): try ${option} ${root}`,
    };
  }
  return { ok: true, url };
}

/** The options the checker, the proxy and the recorder share. */
export function httpOptions(cmd: Command, what: { header?: boolean; pages?: boolean } = {}): Command {
  if (what.header !== false)
    cmd.option(
      '--header <header>',
      "a header sent with every request to the base URL, e.g. 'Authorization: Token …' (repeatable; never reported or written)",
      collect,
      [],
    );
  cmd
    .addOption(
      new Option('--timeout <ms>', `time-out of one request, ${BOUNDS.timeout.min} to ${BOUNDS.timeout.max} ms`)
        .default(BOUNDS.timeout.default)
        .argParser(bounded(BOUNDS.timeout.min, BOUNDS.timeout.max, ' ms')),
    )
    .addOption(
      new Option('--max-body <bytes>', 'largest answer read, on the wire and decompressed (1048576, 512k, 16m)')
        .default(BOUNDS.maxBody.default, '16m')
        .argParser(bytes),
    );
  if (what.pages !== false) {
    cmd
      .addOption(
        new Option('--concurrency <n>', 'requests at once')
          .default(BOUNDS.concurrency.default)
          .argParser(bounded(BOUNDS.concurrency.min, BOUNDS.concurrency.max)),
      )
      .addOption(
        new Option('--max-pages <n>', 'pages crawled per collection at most; a collection cut short is not verified')
          .default(BOUNDS.maxPages.default)
          .argParser(bounded(BOUNDS.maxPages.min, BOUNDS.maxPages.max)),
      )
      .option('--allow-truncated', 'a collection cut short by --max-pages is a note, not a failure', false)
      .addOption(
        new Option('--only <list>', 'collections, comma-separated (desk,employee)').default([], 'all').argParser(list),
      )
      .addOption(
        new Option('--format <format>', "the format parameter of every request ('none' for no parameter)")
          .choices(['api', 'json', 'none'])
          .default('api'),
      );
  }
  return cmd;
}

export { collect };
