import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkServePaths,
  DEFAULTS,
  LOOPBACK_HOSTS,
  resolveConfig,
  stateOptions,
  type StubConfig,
} from '../../../src/server/config.js';

describe('DEFAULTS', () => {
  it('frozen, loopback only, naming the bundled spec and fixtures', () => {
    expect(Object.isFrozen(DEFAULTS)).toBe(true);
    expect(Object.isFrozen(LOOPBACK_HOSTS)).toBe(true);
    expect(DEFAULTS.allowedHosts).toEqual(['.localhost', '127.0.0.1', '[::1]']);
    expect([existsSync(DEFAULTS.specFile), existsSync(DEFAULTS.fixturesDir)]).toEqual([true, true]);
    expect([DEFAULTS.host, DEFAULTS.port, DEFAULTS.pageSize, DEFAULTS.cors]).toEqual([
      '127.0.0.1',
      4010,
      100,
      { mode: 'stub', origins: 'loopback', extra: [] },
    ]);
  });
});

describe('resolveConfig: defaults filled, every value checked, frozen', () => {
  it('fills defaults; an undefined value leaves the default; the result and its host list are frozen', () => {
    const r = resolveConfig({ port: 0, pageSize: undefined, allowedHosts: ['*'] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([r.config.port, r.config.pageSize, r.config.specFile]).toEqual([0, 100, DEFAULTS.specFile]);
    expect([Object.isFrozen(r.config), Object.isFrozen(r.config.allowedHosts)]).toEqual([true, true]);
  });

  it.each<[string, string, string]>([
    ['https://Host.Example/workplace/', 'https://host.example/workplace', 'trailing slash dropped'],
    ['http://h:8000', 'http://h:8000', 'no path'],
    ['https://h:443/', 'https://h', 'default port dropped'],
  ])('base URL %s is %s (%s)', (given, want) => {
    const r = resolveConfig({ baseUrl: given });
    expect(r.ok && r.config.baseUrl).toBe(want);
  });

  it.each<[string, Partial<StubConfig>, string]>([
    ['port', { port: 65_536 }, 'port must be an integer from 0 to 65535 (got 65536)'],
    ['page size', { pageSize: 0 }, 'page size must be an integer from 1 to 100000 (got 0)'],
    ['seed', { seed: 1.5 }, 'seed must be an integer from 0 to 2147483647 (got 1.5)'],
    ['generate count', { generateCount: -1 }, 'generate count must be an integer from 0 to 100000 (got -1)'],
    ['max delay', { maxDelayMs: 600_001 }, 'max delay must be an integer from 0 to 600000 (got 600001)'],
    [
      'shutdown grace',
      { shutdownGraceMs: Number.NaN },
      'shutdown grace must be an integer from 0 to 3600000 (got NaN)',
    ],
    ['journal', { journal: 1_000_001 }, 'journal must be an integer from 0 to 1000000 (got 1000001)'],
    ['max sessions', { maxSessions: 0 }, 'max sessions must be an integer from 1 to 10000 (got 0)'],
    ['host', { host: ' ' }, 'host must not be empty'],
    [
      'base URL with a query',
      { baseUrl: 'https://h/?a=1' },
      'base URL must be an absolute http(s) URL without query or fragment (got "https://h/?a=1")',
    ],
    [
      'base URL with credentials',
      { baseUrl: 'https://u:p@h/' },
      'base URL must be an absolute http(s) URL without query or fragment (got "https://u:p@h/")',
    ],
    [
      'base URL not http',
      { baseUrl: 'ftp://h' },
      'base URL must be an absolute http(s) URL without query or fragment (got "ftp://h")',
    ],
    ['now', { now: 'tomorrow' }, 'now must be an ISO 8601 time such as 2026-01-05T10:00:00-08:00 (got "tomorrow")'],
    [
      'frontend origin',
      { cors: { mode: 'deployment', frontendOrigin: 'https://app.example/x' } },
      'frontend origin must be an origin such as https://app.team.lcog.org (got "https://app.example/x")',
    ],
    [
      'a CORS origin',
      { cors: { mode: 'stub', origins: 'loopback', extra: ['null'] } },
      'a CORS origin is http(s)://host[:port] in lower case, not null (got "null")',
    ],
    ['allowed hosts empty', { allowedHosts: [] }, 'allowed hosts must list at least one non-empty host'],
    ['an empty allowed host', { allowedHosts: ['a', ' '] }, 'allowed hosts must list at least one non-empty host'],
  ])('refuses %s', (_name, partial, error) => {
    expect(resolveConfig(partial)).toEqual({ ok: false, errors: [error] });
  });

  it('answers every error, not the first', () => {
    const r = resolveConfig({ port: -1, pageSize: 0, host: '' });
    expect(r.ok ? [] : r.errors).toHaveLength(3);
  });
});

describe('checkServePaths: --spec a file, --fixtures a folder', () => {
  const dir = mkdtemp(path.join(tmpdir(), 'serve-paths-'));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));

  it.each<[string, string, string, string[]]>([
    ['both right', 'spec.yaml', 'fixtures', []],
    [
      'both missing',
      'nope.yaml',
      'nope',
      ['--spec {d}/nope.yaml: no such file', '--fixtures {d}/nope: no such folder'],
    ],
    [
      'each the other kind',
      'fixtures',
      'spec.yaml',
      ['--spec {d}/fixtures: not a regular file', '--fixtures {d}/spec.yaml: not a folder'],
    ],
  ])('%s', async (_name, spec, fixtures, want) => {
    const d = await dir;
    await writeFile(path.join(d, 'spec.yaml'), 'x');
    await mkdir(path.join(d, 'fixtures'), { recursive: true });
    const errors = checkServePaths({ specFile: path.join(d, spec), fixturesDir: path.join(d, fixtures) });
    expect(errors).toEqual(want.map((w) => w.replaceAll('{d}', d)));
  });
});

describe('stateOptions: what loading needs of the configuration', () => {
  it('maps each option', () => {
    const r = resolveConfig({
      seed: 7,
      generateCount: 3,
      handlersFile: 'h.ts',
      tokensFile: 't.json',
      sessionsFile: 's.json',
    });
    if (!r.ok) throw new Error('valid');
    expect(stateOptions(r.config)).toEqual({
      specFile: DEFAULTS.specFile,
      fixturesDir: DEFAULTS.fixturesDir,
      seed: 7,
      defaultGenerateCount: 3,
      handlersFile: 'h.ts',
      tokensFile: 't.json',
      sessionsFile: 's.json',
    });
  });
});
