import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  attributeOf,
  CONFIG_ENV,
  CONFIG_FILE,
  longFlag,
  resolveSettings,
  settingsOf,
} from '../../../src/cli/contract-config.js';
import { DEFAULTS } from '../../../src/server/config.js';

const root = await mkdtemp(path.join(tmpdir(), 'contract-config-'));
afterAll(() => rm(root, { recursive: true, force: true }));
let n = 0;
/** A working directory holding workplace-stub.config.json with `text` (none when undefined). */
async function cwd(text?: string): Promise<string> {
  const dir = path.join(root, String(n++));
  await mkdir(dir);
  if (text !== undefined) await writeFile(path.join(dir, CONFIG_FILE), text);
  return dir;
}
const BASE = { baseUrl: 'https://staging.test' };

describe('names of the settings', () => {
  it.each<[string, string, string]>([
    ['--base-url <url>', 'baseUrl', '--base-url'],
    ['-p, --port <n>', 'port', '--port'],
    ['--fail-on-drift', 'failOnDrift', '--fail-on-drift'],
  ])('%s: %s, %s', (flag, attribute, long) => {
    expect([attributeOf(flag), longFlag(flag)]).toEqual([attribute, long]);
  });

  it('settingsOf: the settings a command takes', () => {
    expect(settingsOf('proxy').map((s) => s.flag)).toContain('--upstream <url>');
    expect(settingsOf('check').map((s) => s.flag)).not.toContain('--upstream <url>');
    expect(settingsOf('record').map((s) => s.key)).toContain('out');
  });
});

describe('resolveSettings: each from the first of command line, variable, file section, file top, default', () => {
  it('defaults fill what is not given; the result is frozen', async () => {
    const r = await resolveSettings('check', BASE, {}, await cwd());
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.settings).toMatchObject({
      baseUrl: 'https://staging.test',
      spec: DEFAULTS.specFile,
      timeout: 10_000,
      concurrency: 4,
      maxPages: 1000,
      format: 'api',
      only: [],
      probes: false,
    });
    expect(Object.isFrozen(r.settings)).toBe(true);
    expect(r.file).toBeUndefined();
  });

  const C = 'WORKPLACE_STUB_COMPARE_URL';
  it.each<[string, Record<string, unknown>, Record<string, string>, object | undefined, string | undefined]>([
    [
      'the command line first',
      { compare: 'https://cli.test' },
      { [C]: 'https://env.test' },
      { compare: 'https://top.test', check: { compare: 'https://section.test' } },
      'https://cli.test',
    ],
    [
      'then the variable',
      {},
      { [C]: 'https://env.test' },
      { compare: 'https://top.test', check: { compare: 'https://section.test' } },
      'https://env.test',
    ],
    [
      'an empty variable is unset',
      {},
      { [C]: '' },
      { compare: 'https://top.test', check: { compare: 'https://section.test' } },
      'https://section.test',
    ],
    [
      "then the file's section for the command",
      {},
      {},
      { compare: 'https://top.test', check: { compare: 'https://section.test' } },
      'https://section.test',
    ],
    ["another command's section does not count", {}, {}, { timeout: 5, record: { maxPages: 3 } }, undefined],
    ["then the file's top", {}, {}, { compare: 'https://top.test' }, 'https://top.test'],
    ['then the default (none)', {}, {}, undefined, undefined],
  ])('%s', async (_name, flags, env, file, want) => {
    const dir = await cwd(file === undefined ? undefined : JSON.stringify(file));
    const r = await resolveSettings('check', { ...BASE, ...flags }, env, dir);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.settings.compare).toBe(want);
    expect(r.file).toBe(file === undefined ? undefined : path.join(dir, CONFIG_FILE));
  });

  it.each<[string, object, number]>([
    ["the command's section over the top", { timeout: 8, check: { timeout: 7 } }, 7],
    ['the top over the default', { timeout: 8 }, 8],
    ["another command's section does not count", { proxy: { timeout: 7 } }, 10_000],
  ])('from the file: %s', async (_name, file, want) => {
    const r = await resolveSettings('check', BASE, {}, await cwd(JSON.stringify(file)));
    expect(r.ok && r.settings.timeout).toBe(want);
  });

  it('headers are merged by name, each source over those after it', async () => {
    const dir = await cwd(
      JSON.stringify({ headers: { 'X-File': '3', 'X-Env': 'file' }, check: { headers: { 'X-Section': '4' } } }),
    );
    const r = await resolveSettings(
      'check',
      { ...BASE, header: ['X-Cli: 2', 'Authorization: Token cli'] },
      { WORKPLACE_STUB_HEADER: 'Authorization: Token env\r\nX-Env: 1\n\n' },
      dir,
    );
    expect(r.ok && r.settings.headers).toEqual({
      authorization: 'Token cli',
      'x-cli': '2',
      'x-env': '1',
      'x-file': '3',
      'x-section': '4',
    });
  });

  it('values given as text are converted as their flags convert them', async () => {
    const env = { WORKPLACE_STUB_BASE_URL: 'https://env.test', WORKPLACE_STUB_SPEC: 'x.yaml' };
    const dir = await cwd(
      JSON.stringify({
        only: ['desk', 'employee'],
        probes: true,
        maxBody: '1m',
        spec: 'specs/s.yaml',
        record: { out: 'out' },
      }),
    );
    const r = await resolveSettings('check', {}, env, dir);
    expect(
      r.ok && [r.settings.baseUrl, r.settings.only, r.settings.probes, r.settings.maxBody, r.settings.spec],
    ).toEqual(['https://env.test', ['desk', 'employee'], true, 2 ** 20, 'x.yaml']);
    const rec = await resolveSettings('record', BASE, {}, dir);
    expect(rec.ok && [rec.settings.out, rec.settings.spec]).toEqual([
      path.join(dir, 'out'),
      path.join(dir, 'specs/s.yaml'),
    ]);
  });

  it.each<[string, string]>([
    ['--config', 'flag'],
    [CONFIG_ENV, 'variable'],
  ])('a config file named by %s, its paths relative to its folder', async (_name, by) => {
    const dir = await cwd();
    await mkdir(path.join(dir, 'conf'));
    await writeFile(
      path.join(dir, 'conf', 'c.json'),
      JSON.stringify({ baseUrl: 'https://file.test', spec: 'my.yaml' }),
    );
    const named = path.join('conf', 'c.json');
    const r = await resolveSettings(
      'check',
      by === 'flag' ? { config: named } : {},
      by === 'flag' ? {} : { [CONFIG_ENV]: named },
      dir,
    );
    expect(r.ok && [r.settings.baseUrl, r.settings.spec, r.file]).toEqual([
      'https://file.test',
      path.join(dir, 'conf', 'my.yaml'),
      path.join(dir, 'conf', 'c.json'),
    ]);
  });

  it.each<[string, string | undefined, Record<string, unknown>, Record<string, string>, string[]]>([
    [
      'a required option missing',
      undefined,
      {},
      {},
      [
        `required option '--base-url <url>' not specified: give it, or set WORKPLACE_STUB_BASE_URL, or "baseUrl" in ${CONFIG_FILE}`,
      ],
    ],
    ['not JSON: its place', '{\n  "timeout": 5,\n}', BASE, {}, [`${CONFIG_FILE}:3:1: not JSON: `]],
    [
      'not an object',
      '[1]',
      BASE,
      {},
      [`${CONFIG_FILE}: must be a JSON object of settings, {"baseUrl": "https://staging.example.org"}`],
    ],
    [
      'an unknown setting: the nearest named',
      '{"timout": 5}',
      BASE,
      {},
      [`${CONFIG_FILE}:1:2: timout: unknown setting; did you mean timeout? (the settings are `],
    ],
    [
      'an unknown setting of a section',
      '{"check": {"upstream": "x"}}',
      BASE,
      {},
      [`${CONFIG_FILE}:1:12: check.upstream: unknown setting`],
    ],
    [
      'a key given twice',
      '{"timeout": 5,\n "timeout": 6}',
      BASE,
      {},
      [`${CONFIG_FILE}:2:2: a key given twice (JSON keeps the last silently)`],
    ],
    [
      'a section that is no object',
      '{"check": 5}',
      BASE,
      {},
      [`${CONFIG_FILE}:1:2: check: must be an object of the check command's settings`],
    ],
    [
      'wrong types, every one, wherever they are',
      '{"timeout": true, "proxy": {"errors": "yes"}, "format": "xml", "only": [1]}',
      BASE,
      {},
      [
        `${CONFIG_FILE}:1:13: timeout: must be a whole number`,
        `${CONFIG_FILE}:1:39: proxy.errors: must be true or false`,
        `${CONFIG_FILE}:1:57: format: must be one of api, json, none`,
        `${CONFIG_FILE}:1:72: only: must be a list of names`,
      ],
    ],
    [
      'a value out of its bounds',
      '{"timeout": 0}',
      BASE,
      {},
      [`${CONFIG_FILE}:1:13: timeout: must be from 1 to 600000 ms`],
    ],
    [
      'a base URL naming /api/v1, in the words of its place',
      '{"compare": "https://prod.test/api/v1"}',
      BASE,
      {},
      [`try "compare": "https://prod.test"`],
    ],
    [
      'a header of the file that is not a text',
      '{"headers": {"X-A": 1}}',
      BASE,
      {},
      [`${CONFIG_FILE}:1:13: headers: X-A: a header's value is a text`],
    ],
    [
      'an origin that is none',
      '{"corsOrigins": ["null"]}',
      BASE,
      {},
      [`${CONFIG_FILE}:1:17: corsOrigins: null: never allowed`],
    ],
  ])('refused: %s', async (_name, file, flags, env, want) => {
    const r = await resolveSettings('check', flags, env, await cwd(file));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors).toHaveLength(want.length);
      r.errors.forEach((e, i) => expect(e).toContain(want[i]));
    }
  });

  it('a --config that cannot be read is said, and the required options are not asked for again', async () => {
    const r = await resolveSettings('check', { config: 'missing.json' }, {}, await cwd());
    expect(r).toEqual({ ok: false, errors: ['missing.json: cannot be read (ENOENT)'] });
  });
});
