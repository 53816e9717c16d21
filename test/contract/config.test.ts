// check, proxy and record read their settings from the command line, environment variables and
// a config file, in that order, so that credentials stay out of shell history and CI logs.
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/cli/contract-config.js';
import { runCli, startCli } from '../cli-helpers.js';
import { deployment, type Deployment, EMPTY_PAGE, sendJson } from './deployments.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(`${tmpdir()}/config-`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A config file of `text` in a folder of its own; answers the folder. */
async function folderWith(text: string, name = 'workplace-stub.config.json'): Promise<string> {
  const d = await mkdtemp(`${dir}/f-`);
  await writeFile(path.join(d, name), text);
  return d;
}

describe('precedence: the command line, then the variable, then the file’s section, then its top', () => {
  const FILE = JSON.stringify({
    baseUrl: 'http://top.example',
    timeout: 1000,
    maxPages: 7,
    headers: { Authorization: 'Token from-file', 'X-Team': 'top' },
    check: { baseUrl: 'http://section.example', timeout: 2000, headers: { 'X-Team': 'section' } },
    out: 'recorded',
  });
  const cases: [string, Record<string, unknown>, Record<string, string>, Record<string, unknown>][] = [
    ['the file’s section over its top', {}, {}, { baseUrl: 'http://section.example', timeout: 2000, maxPages: 7 }],
    [
      'a variable over the file',
      {},
      { WORKPLACE_STUB_BASE_URL: 'http://env.example' },
      { baseUrl: 'http://env.example', timeout: 2000 },
    ],
    [
      'the command line over a variable',
      { baseUrl: 'http://cli.example', timeout: 3000 },
      { WORKPLACE_STUB_BASE_URL: 'http://env.example' },
      { baseUrl: 'http://cli.example', timeout: 3000 },
    ],
    ['an empty variable counts as unset', {}, { WORKPLACE_STUB_BASE_URL: '' }, { baseUrl: 'http://section.example' }],
    [
      'headers merged by name in the same order',
      { header: ['X-Cli: c'] },
      { WORKPLACE_STUB_HEADER: 'Authorization: Token from-env\nX-Env: e\n' },
      {
        headers: { authorization: 'Token from-env', 'x-team': 'section', 'x-env': 'e', 'x-cli': 'c' },
      },
    ],
    ['defaults where nothing gives one', {}, {}, { concurrency: 4, format: 'api', only: [], probes: false }],
  ];
  it.each(cases)('%s', async (_name, flags, env, want) => {
    const cwd = await folderWith(FILE);
    const r = await resolveSettings('check', flags, env, cwd);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.settings).toMatchObject(want);
    expect(r.file).toBe(path.join(cwd, 'workplace-stub.config.json'));
  });

  it('a setting of another command at the top is for that command; paths are relative to the file', async () => {
    const cwd = await folderWith(FILE);
    const r = await resolveSettings('record', {}, {}, '/');
    expect(r.ok).toBe(false);
    const named = await resolveSettings('record', { config: path.join(cwd, 'workplace-stub.config.json') }, {}, '/');
    expect(named.ok && named.settings).toMatchObject({
      baseUrl: 'http://top.example',
      out: path.join(cwd, 'recorded'),
    });
    const byEnv = await resolveSettings(
      'record',
      {},
      { WORKPLACE_STUB_CONFIG: `${cwd}/workplace-stub.config.json` },
      '/',
    );
    expect(byEnv.ok && byEnv.settings).toMatchObject({ baseUrl: 'http://top.example' });
  });

  it('nothing given: the required settings named with every way to give them', async () => {
    const r = await resolveSettings('record', {}, {}, await mkdtemp(`${dir}/empty-`));
    expect(r.ok ? [] : r.errors).toEqual([
      `required option '--base-url <url>' not specified: give it, or set WORKPLACE_STUB_BASE_URL, or "baseUrl" in workplace-stub.config.json`,
      `required option '--out <dir>' not specified: give it, or "out" in workplace-stub.config.json`,
    ]);
  });
});

describe('a bad config file: every mistake, with its file, line and column', () => {
  it.each([
    [
      'unknown names, a typo suggested',
      '{\n  "baseUrl": "http://h",\n  "timout": 5,\n  "check": {\n    "port": 1,\n    "probse": true\n  },\n  "serve": {}\n}',
      [
        'workplace-stub.config.json:3:3: timout: unknown setting; did you mean timeout?',
        'workplace-stub.config.json:5:5: check.port: unknown setting',
        'workplace-stub.config.json:6:5: check.probse: unknown setting; did you mean probes?',
        'workplace-stub.config.json:8:3: serve: unknown setting',
      ],
    ],
    [
      'wrong types and values',
      '{\n  "baseUrl": "http://h/api/v1",\n  "timeout": "soon",\n  "maxPages": 0,\n  "probes": "yes",\n  "only": [1],\n  "headers": {"X-A": 1},\n  "compareHeaders": "Authorization: x",\n  "format": "xml",\n  "proxy": {"corsOrigins": ["null"]}\n}',
      [
        "workplace-stub.config.json:2:14: baseUrl is the deployment's root, without /api/v1",
        'workplace-stub.config.json:3:14: timeout: not a whole number',
        'workplace-stub.config.json:4:15: maxPages: must be from 1 to 1000000',
        'workplace-stub.config.json:5:13: probes: must be true or false',
        'workplace-stub.config.json:6:11: only: must be a list of names',
        "workplace-stub.config.json:7:14: headers: X-A: a header's value is a text",
        'workplace-stub.config.json:8:21: compareHeaders: must be an object of headers',
        'workplace-stub.config.json:9:13: format: must be one of api, json, none',
        'workplace-stub.config.json:10:28: proxy.corsOrigins: null: never allowed',
      ],
    ],
    ['not JSON', '{\n  "baseUrl": "http://h",\n}', ['workplace-stub.config.json:3:1: not JSON']],
    ['not an object', '["http://h"]', ['workplace-stub.config.json: must be a JSON object of settings']],
    [
      'a name given twice',
      '{"baseUrl": "http://h",\n "baseUrl": "http://i"}',
      ['workplace-stub.config.json:2:2: a key given twice'],
    ],
    [
      'a section that is not an object',
      '{"baseUrl": "http://h", "check": 1}',
      ['workplace-stub.config.json:1:25: check: must be an object'],
    ],
  ])('%s', async (_name, text, want) => {
    const cwd = await folderWith(text);
    const r = await resolveSettings('check', {}, {}, cwd);
    const errors = r.ok ? [] : r.errors;
    expect(errors).toHaveLength(want.length);
    want.forEach((w, i) => expect(errors[i]).toContain(w));
  });

  it('--config naming no file is an error; the default file may be absent', async () => {
    const r = await resolveSettings('check', { config: 'nope.json', baseUrl: 'http://h' }, {}, dir);
    expect(r.ok ? [] : r.errors).toEqual(['nope.json: cannot be read (ENOENT)']);
  });
});

describe('the commands, run as a user runs them', () => {
  const TOKEN = 'Token cfg-s3cret-41';
  let d: Deployment;
  beforeAll(async () => {
    // Answers only with the token: a run that lost it is refused (exit 2).
    d = await deployment((req, res) =>
      req.headers.authorization === TOKEN ? sendJson(res, 200, EMPTY_PAGE) : sendJson(res, 401, { detail: 'no' }),
    );
  });
  afterAll(async () => {
    await d.close();
  });

  it('check: the base URL and the token from the environment, nothing on the command line', async () => {
    const r = await runCli(['check', '--only', 'employee'], {
      env: { WORKPLACE_STUB_BASE_URL: d.base, WORKPLACE_STUB_HEADER: `Authorization: ${TOKEN}` },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ GET \/api\/v1\/employee/);
    expect(`${r.stdout}${r.stderr}`).not.toContain('cfg-s3cret');
  });

  it('record: everything from a config file, the fixtures where it says (relative to it)', async () => {
    const cwd = await folderWith(
      JSON.stringify({
        baseUrl: d.base,
        headers: { Authorization: TOKEN },
        record: { out: 'recorded', only: ['employee'] },
      }),
      'staging.json',
    );
    const r = await runCli(['record', '--config', path.join(cwd, 'staging.json')]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ employee: 0 items → .*recorded\/employee\.json/);
  });

  it('proxy: --upstream and --cors-origin from the file', async () => {
    const cwd = await folderWith(
      JSON.stringify({ baseUrl: d.base, proxy: { corsOrigins: ['https://dev.example.org'] } }),
    );
    await mkdir(path.join(cwd, 'sub'));
    const { child, url } = await startCli([
      'proxy',
      '--config',
      path.join(cwd, 'workplace-stub.config.json'),
      '--port',
      '0',
    ]);
    try {
      const res = await fetch(`${url}/api/v1/employee`, {
        headers: { origin: 'https://dev.example.org', authorization: TOKEN },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://dev.example.org');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('a bad file: exit 2, one line per mistake, before anything is requested', async () => {
    const cwd = await folderWith('{\n  "baseUrl": "http://h",\n  "maxPagess": 3,\n  "timeout": 0\n}');
    const before = d.seen.length;
    const r = await runCli(['check', '--config', path.join(cwd, 'workplace-stub.config.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^error: .*workplace-stub\.config\.json:3:3: maxPagess: unknown setting; did you mean maxPages\?/,
      ),
      expect.stringMatching(/^error: .*workplace-stub\.config\.json:4:14: timeout: must be from 1 to 600000 ms$/),
    ]);
    expect(d.seen.length).toBe(before);
  });

  it.each(['check', 'proxy', 'record'])('%s --help names every variable and the config file', async (command) => {
    const r = await runCli([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/WORKPLACE_STUB_BASE_URL/);
    expect(r.stdout).toMatch(/WORKPLACE_STUB_CONFIG/);
    expect(r.stdout).toMatch(/workplace-stub\.config\.json/);
    if (command !== 'proxy') expect(r.stdout).toMatch(/WORKPLACE_STUB_HEADER +--header, one "Name: value" per line/);
  });
});
