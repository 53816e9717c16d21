import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../cli-helpers.js';
import { FIXTURES, SPEC } from '../helpers.js';

async function workspace(): Promise<{ dir: string; spec: string; fixtures: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stub-startup-'));
  await cp(path.dirname(SPEC), path.join(dir, 'openapi'), { recursive: true });
  await cp(FIXTURES, path.join(dir, 'fixtures'), { recursive: true });
  return { dir, spec: path.join(dir, 'openapi', 'openapi.yaml'), fixtures: path.join(dir, 'fixtures') };
}

async function editDesks(fixtures: string, edit: (desks: Record<string, unknown>[]) => void): Promise<void> {
  const file = path.join(fixtures, 'desk.json');
  const desks = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
  edit(desks);
  await writeFile(file, JSON.stringify(desks, null, 2));
}

describe('a broken spec or fixture stops start-up with file, JSON pointer and reason', () => {
  it.each([
    [
      'invalid JSON',
      async (w: { fixtures: string }) => writeFile(path.join(w.fixtures, 'desk.json'), '[{"pk": 1,}]'),
      /fixtures\/desk\.json at line 1:\d+: invalid JSON/,
    ],
    [
      'a schema violation',
      async (w: { fixtures: string }) =>
        editDesks(w.fixtures, (d) => {
          (d[3] as Record<string, unknown>).building = 'Z';
        }),
      /fixtures\/desk\.json at line \d+:\d+ \(\/3\/building\): must be equal to one of the allowed values: \["S","P"\]/,
    ],
    [
      'a number longer than the model allows',
      async (w: { fixtures: string }) =>
        editDesks(w.fixtures, (d) => {
          (d[4] as Record<string, unknown>).number = '12345678901';
        }),
      /fixtures\/desk\.json at line \d+:\d+ \(\/4\/number\): must NOT have more than 10 characters/,
    ],
    [
      'a number stored as an integer',
      async (w: { fixtures: string }) =>
        editDesks(w.fixtures, (d) => {
          (d[0] as Record<string, unknown>).number = 12;
        }),
      /fixtures\/desk\.json at line \d+:\d+ \(\/0\/number\): must be string/,
    ],
    [
      'a missing field',
      async (w: { fixtures: string }) =>
        editDesks(w.fixtures, (d) => {
          delete (d[5] as Record<string, unknown>).held_today;
        }),
      /fixtures\/desk\.json at line \d+:\d+ \(\/5\): must have required property "held_today"/,
    ],
    [
      'a repeated pk',
      async (w: { fixtures: string }) =>
        editDesks(w.fixtures, (d) => {
          (d[7] as Record<string, unknown>).pk = (d[2] as Record<string, unknown>).pk;
        }),
      /fixtures\/desk\.json at line \d+:\d+ \(\/7\/pk\): repeats pk \d+ of item 2/,
    ],
    [
      'a stored url',
      async (w: { fixtures: string }) =>
        editDesks(w.fixtures, (d) => {
          (d[1] as Record<string, unknown>).url = 'http://prod/api/v1/desk/2';
        }),
      /fixtures\/desk\.json at line \d+:\d+ \(\/1\/url\): url is built per request/,
    ],
    [
      'an unreadable file',
      async (w: { fixtures: string }) => mkdir(path.join(w.fixtures, 'employee.json')),
      /fixtures\/employee\.json: cannot read the file \(EISDIR\): a directory, not a regular file/,
    ],
    [
      'a $ref to a missing file',
      async (w: { spec: string }) =>
        writeFile(w.spec, (await readFile(w.spec, 'utf8')).replace('./schemas/desk.yaml', './schemas/nodesk.yaml')),
      /schemas\/nodesk\.yaml: cannot read the file \(ENOENT\)/,
    ],
    [
      'broken YAML',
      async (w: { spec: string }) =>
        writeFile(path.join(path.dirname(w.spec), 'schemas', 'desk.yaml'), 'type: object\nproperties: [\n'),
      /schemas\/desk\.yaml at line \d+:\d+: /,
    ],
    [
      'an invalid JSON Schema type',
      async (w: { spec: string }) => {
        const f = path.join(path.dirname(w.spec), 'schemas', 'desk.yaml');
        await writeFile(f, (await readFile(f, 'utf8')).replace('type: integer', 'type: intger'));
      },
      /schemas\/desk\.yaml at line \d+:\d+ \(\/.*\): invalid JSON Schema/,
    ],
  ])('%s', async (_name, breakIt, message) => {
    const w = await workspace();
    await breakIt(w as never);
    const r = await runCli(['--spec', w.spec, '--fixtures', w.fixtures, '--port', '0', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toMatch(/listening/);
  });
});

describe('the CLI', () => {
  it('starts the bundled stub, prints its URL, and exits 0 on SIGTERM', async () => {
    const { child, url } = await startCli(['--port', '0', '--quiet']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/api/v1/desk?format=api`);
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('SIGTERM lets a request in flight finish, then exits 0', async () => {
    const { child, url } = await startCli(['--port', '0', '--quiet']);
    const inFlight = fetch(`${url}/api/v1/desk?format=api`, { headers: { prefer: 'delay=800' } });
    await new Promise((r) => setTimeout(r, 200));
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { count: number }).count).toBeGreaterThan(0);
    const [code] = await exited;
    expect(code).toBe(0);
  });

  it('rejects a bad option value at once with one line and a non-zero exit', async () => {
    const r = await runCli(['--page-size', 'abc']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const r2 = await runCli(['--base-url', 'ftp://x']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/base URL must be an absolute http\(s\) URL/);
  });
});
