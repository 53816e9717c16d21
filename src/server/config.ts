import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fixedBase, originOf } from '../core/django/host.js';
import { type CorsPolicy, LOOPBACK_CORS } from '../core/stub/cors.js';
import type { StateOptions } from '../load/state.js';

/** The stub's configuration: parsed once, defaults filled here, validated, frozen, passed down. */
export interface StubConfig {
  readonly host: string;
  readonly port: number;
  /** PageNumberPagination's PAGE_SIZE. */
  readonly pageSize: number;
  /** A fixed base URL for every absolute url, instead of the request's scheme and Host. */
  readonly baseUrl: string | undefined;
  /** Read X-Forwarded-Host / X-Forwarded-Proto (Django's USE_X_FORWARDED_HOST + SECURE_PROXY_SSL_HEADER). */
  readonly trustProxy: boolean;
  /** Django's ALLOWED_HOSTS. */
  readonly allowedHosts: readonly string[];
  readonly specFile: string;
  readonly fixturesDir: string;
  /** Seed of generated data. */
  readonly seed: number;
  /** Items generated per collection when its item schema has no `x-stub-count`. */
  readonly generateCount: number;
  /** Which browser pages may read the answers (`--no-cors`, `--cors any`, `--cors-origin`, `--frontend-origin`). */
  readonly cors: CorsPolicy;
  /** `--tokens`: a JSON file of the token keys TokenAuthentication accepts (any key without it). */
  readonly tokensFile: string | undefined;
  /** `--sessions`: a JSON file of the session keys of logged-in users (none without it). */
  readonly sessionsFile: string | undefined;
  /** `--handlers`: the designer's module of handlers by operationId (.js, .mjs, .ts). */
  readonly handlersFile: string | undefined;
  /** `--strict-handlers`: a handler's answer its declaration refuses is a 500. */
  readonly strictHandlers: boolean;
  /** `--now`: a fixed time for handlers' `context.now()` (ISO 8601). */
  readonly now: string | undefined;
  /** `--journal N`: requests kept per session for `GET /__stub/requests` (0 for none). */
  readonly journal: number;
  /** `--max-sessions N`: sessions (`X-Stub-Session`) open at a time. */
  readonly maxSessions: number;
  readonly watch: boolean;
  /** With `watch`: regenerate the TypeScript types into this file when the spec changes. */
  readonly typesFile: string | undefined;
  readonly validateRequests: boolean;
  /** Upper bound of `Prefer: delay=MS`. */
  readonly maxDelayMs: number;
  readonly logLevel: 'silent' | 'info';
  readonly logFormat: 'pretty' | 'json';
  /** After SIGTERM/SIGINT: how long requests in flight may take before their connections are closed. */
  readonly shutdownGraceMs: number;
}

/** Django's ALLOWED_HOSTS for loopback: `localhost` and its subdomains, 127.0.0.1 and [::1]. */
export const LOOPBACK_HOSTS: readonly string[] = Object.freeze(['.localhost', '127.0.0.1', '[::1]']);

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const DEFAULTS: StubConfig = Object.freeze({
  host: '127.0.0.1',
  port: 4010,
  pageSize: 100,
  baseUrl: undefined,
  trustProxy: false,
  // Loopback names only, as Vite answers after its DNS-rebinding advisory; --allowed-hosts adds.
  allowedHosts: LOOPBACK_HOSTS,
  specFile: `${PACKAGE_ROOT}openapi/openapi.yaml`,
  fixturesDir: `${PACKAGE_ROOT}fixtures`,
  seed: 1,
  generateCount: 25,
  cors: LOOPBACK_CORS,
  tokensFile: undefined,
  sessionsFile: undefined,
  handlersFile: undefined,
  strictHandlers: false,
  now: undefined,
  journal: 1000,
  maxSessions: 64,
  watch: false,
  typesFile: undefined,
  validateRequests: false,
  maxDelayMs: 10_000,
  logLevel: 'info',
  logFormat: 'pretty',
  shutdownGraceMs: 10_000,
});

export type ConfigResult = { ok: true; config: StubConfig } | { ok: false; errors: string[] };

function intIn(errors: string[], name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max)
    errors.push(`${name} must be an integer from ${min} to ${max} (got ${String(v)})`);
}

/** Fills defaults, checks every value, and freezes. Answers every error, not the first. */
export function resolveConfig(partial: Partial<StubConfig>): ConfigResult {
  const merged = {
    ...DEFAULTS,
    ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)),
  } as StubConfig;
  const errors: string[] = [];
  intIn(errors, 'port', merged.port, 0, 65535);
  intIn(errors, 'page size', merged.pageSize, 1, 100_000);
  intIn(errors, 'seed', merged.seed, 0, 2 ** 31 - 1);
  intIn(errors, 'generate count', merged.generateCount, 0, 100_000);
  intIn(errors, 'max delay', merged.maxDelayMs, 0, 600_000);
  intIn(errors, 'shutdown grace', merged.shutdownGraceMs, 0, 3_600_000);
  intIn(errors, 'journal', merged.journal, 0, 1_000_000);
  intIn(errors, 'max sessions', merged.maxSessions, 1, 10_000);
  if (merged.host.trim() === '') errors.push('host must not be empty');
  let baseUrl = merged.baseUrl;
  if (baseUrl !== undefined) {
    baseUrl = fixedBase(baseUrl)?.url;
    if (baseUrl === undefined)
      errors.push(
        `base URL must be an absolute http(s) URL without query or fragment (got ${JSON.stringify(merged.baseUrl)})`,
      );
  }
  if (merged.now !== undefined && Number.isNaN(Date.parse(merged.now)))
    errors.push(`now must be an ISO 8601 time such as 2026-01-05T10:00:00-08:00 (got ${JSON.stringify(merged.now)})`);
  if (merged.cors.mode === 'deployment' && originOf(merged.cors.frontendOrigin) !== merged.cors.frontendOrigin)
    errors.push(
      `frontend origin must be an origin such as https://app.team.lcog.org (got ${JSON.stringify(merged.cors.frontendOrigin)})`,
    );
  if (merged.cors.mode === 'stub')
    for (const o of merged.cors.extra)
      if (originOf(o) !== o)
        errors.push(`a CORS origin is http(s)://host[:port] in lower case, not null (got ${JSON.stringify(o)})`);
  if (merged.allowedHosts.length === 0 || merged.allowedHosts.some((h) => h.trim() === ''))
    errors.push('allowed hosts must list at least one non-empty host');
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: Object.freeze({ ...merged, baseUrl, allowedHosts: Object.freeze([...merged.allowedHosts]) }),
  };
}

/**
 * The paths the stub serves from, checked before anything is loaded: `--spec` must name a file
 * and `--fixtures` a folder (a typo is an error of the command line, exit 2, not an empty stub).
 * Answers one message per problem.
 */
export function checkServePaths(config: Pick<StubConfig, 'specFile' | 'fixturesDir'>): string[] {
  const errors: string[] = [];
  const kind = (p: string) => {
    try {
      const st = statSync(p);
      return st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other';
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
    }
  };
  const spec = kind(config.specFile);
  if (spec === 'missing') errors.push(`--spec ${config.specFile}: no such file`);
  else if (spec === 'unreadable') errors.push(`--spec ${config.specFile}: cannot be read`);
  else if (spec !== 'file') errors.push(`--spec ${config.specFile}: not a regular file`);
  const fixtures = kind(config.fixturesDir);
  if (fixtures === 'missing') errors.push(`--fixtures ${config.fixturesDir}: no such folder`);
  else if (fixtures === 'unreadable') errors.push(`--fixtures ${config.fixturesDir}: cannot be read`);
  else if (fixtures !== 'folder') errors.push(`--fixtures ${config.fixturesDir}: not a folder`);
  return errors;
}

/** What loading needs from the configuration. */
export function stateOptions(config: StubConfig): StateOptions {
  return {
    specFile: config.specFile,
    fixturesDir: config.fixturesDir,
    seed: config.seed,
    defaultGenerateCount: config.generateCount,
    handlersFile: config.handlersFile,
    tokensFile: config.tokensFile,
    sessionsFile: config.sessionsFile,
  };
}
