import { once } from 'node:events';
import { createServer } from 'node:net';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, startCli } from '../cli-helpers.js';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

const SERVE_OPTIONS = [
  '--port',
  '--host',
  '--page-size',
  '--base-url',
  '--trust-proxy',
  '--allowed-hosts',
  '--spec',
  '--fixtures',
  '--seed',
  '--generate-count',
  '--no-cors',
  '--watch',
  '--types',
  '--validate-requests',
  '--max-delay',
  '--shutdown-grace',
  '--quiet',
  '--log-format',
];

describe('the command line', () => {
  it('--help lists every option of the default command with its default and environment variable', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const option of SERVE_OPTIONS) expect(r.stdout).toContain(option);
    expect(r.stdout).toMatch(/default: 4010, env: PORT/);
    expect(r.stdout).toMatch(/default: "127\.0\.0\.1", env: HOST/);
    expect(r.stdout).toMatch(/check \[options\]/);
    const check = await runCli(['check', '--help']);
    for (const option of [
      '--base-url',
      '--header',
      '--timeout',
      '--concurrency',
      '--max-pages',
      '--only',
      '--json',
      '--junit',
    ])
      expect(check.stdout).toContain(option);
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(`${ROOT}package.json`, 'utf8')) as { version: string };
    expect((await runCli(['--version'])).stdout.trim()).toBe(pkg.version);
  });

  it.each([
    [['--bogus'], /unknown option '--bogus'/],
    [['--port', 'http'], /--port/],
    [['--port', '70000'], /port must be an integer from 0 to 65535/],
    [['--log-format', 'xml'], /--log-format/],
    [['check'], /required option '--base-url/],
  ])('%j fails at once with one line and a non-zero exit', async (args, message) => {
    // Bounded generously: on CI's shared machine, under the whole suite, starting node with tsx
    // has taken 10 s. "At once" is what stderr and stdout show: no server was started.
    const r = await runCli(args, { timeoutMs: 40_000 });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toMatch(/listening/);
  });

  it('takes options from the environment (PORT) and logs one line per request; NO_COLOR means no colour', async () => {
    const port = await freePort();
    const { child, url, output } = await startCli([], { PORT: String(port), NO_COLOR: '1' });
    expect(url).toBe(`http://127.0.0.1:${port}`);
    await fetch(`${url}/api/v1/desk?format=api`);
    await fetch(`${url}/api/v1/nosuch`);
    // A page, and two requests a page leaves to the service: one line each too.
    await fetch(`${url}/docs`);
    // Not a browser: the deployment's redirect to the API root (not followed, so one line).
    expect((await fetch(`${url}/`, { redirect: 'manual' })).headers.get('location')).toBe('/api/');
    await fetch(`${url}/docs/nosuch.js`);
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGTERM');
    await once(child, 'exit');
    const lines = output().split('\n');
    expect(lines.filter((l) => /GET \/api\/v1\/desk\?format=api 200 [\d.]+ms/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /GET \/api\/v1\/nosuch 404 [\d.]+ms/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => / GET \/docs 200 [\d.]+ms$/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => / GET \/ 302 [\d.]+ms$/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => / GET \/docs\/nosuch\.js 404 [\d.]+ms$/.test(l))).toHaveLength(1);
    expect(output()).not.toContain('\u001b[');
  });

  it('--log-format json writes JSON lines; --quiet writes none', async () => {
    const json = await startCli(['--port', '0', '--log-format', 'json']);
    await fetch(`${json.url}/api/v1/desk`);
    await new Promise((r) => setTimeout(r, 200));
    json.child.kill('SIGTERM');
    await once(json.child, 'exit');
    const entries = json
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.method);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ method: 'GET', url: '/api/v1/desk', status: 200 });

    const quiet = await startCli(['--port', '0', '--quiet']);
    await fetch(`${quiet.url}/api/v1/desk`);
    await new Promise((r) => setTimeout(r, 200));
    quiet.child.kill('SIGTERM');
    await once(quiet.child, 'exit');
    expect(quiet.output()).not.toMatch(/GET \/api\/v1\/desk/);
  });
});
