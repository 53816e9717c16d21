import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadError } from '../../src/load/errors.js';
import { readFixture } from '../../src/load/fixtures.js';
import { DEFAULT_LOAD_LIMITS } from '../../src/load/limits.js';
import { folderOf } from '../../src/load/read-confined.js';
import { confinedResolveOptions, loadSpec } from '../../src/load/spec.js';
import { loadState } from '../../src/load/state.js';
import { DESK_REF_POINTER, setDeskRef, type Workspace, workspace } from '../workspace.js';

/** The problems a load stops with, one line each (file, place, reason). */
async function loadProblems(load: Promise<unknown>): Promise<string[]> {
  try {
    await load;
  } catch (e) {
    if (e instanceof LoadError) return e.message.split('\n');
    throw e;
  }
  return [];
}

const OUTSIDE = 'type: object\nproperties:\n  secret:\n    type: string\n    const: OUTSIDE-SECRET\n';

/** A host that records every request: nothing of the spec may ever reach it. */
let host: Server;
let hostPort = 0;
const hits: string[] = [];
beforeAll(async () => {
  host = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.setHeader('content-type', 'application/yaml');
    res.end(OUTSIDE);
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  hostPort = (host.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => host.close(() => r())));

describe('the spec reaches no host: every remote $ref is a load error where it stands', () => {
  const REMOTE: [string, (port: number) => string][] = [
    ['a leading space', (p) => ` http://127.0.0.1:${p}/evil.yaml`],
    ['a leading tab', (p) => `\thttp://127.0.0.1:${p}/evil.yaml`],
    ['a trailing space', (p) => `http://127.0.0.1:${p}/evil.yaml `],
    ['capitals', (p) => `HTTP://127.0.0.1:${p}/evil.yaml`],
    ['[::1]', (p) => `http://[::1]:${p}/evil.yaml`],
    ['[::ffff:127.0.0.1]', (p) => `http://[::ffff:127.0.0.1]:${p}/evil.yaml`],
    ['a decimal IPv4', (p) => `http://2130706433:${p}/evil.yaml`],
    ['localhost', (p) => `http://localhost:${p}/evil.yaml`],
    ['scheme-relative', (p) => `//127.0.0.1:${p}/evil.yaml`],
    ['scheme-relative with backslashes', (p) => `\\\\127.0.0.1:${p}/evil.yaml`],
    ['https', (p) => `https://127.0.0.1:${p}/evil.yaml`],
    ['http: without slashes', () => 'http:evil.yaml'],
    ['ftp', (p) => `ftp://127.0.0.1:${p}/evil.yaml`],
  ];
  it('the host is reachable (or this test could not fail)', async () => {
    expect((await fetch(`http://127.0.0.1:${hostPort}/probe`)).ok).toBe(true);
    hits.length = 0;
  });
  it.each(REMOTE)('%s', async (_name, refOf) => {
    const ref = refOf(hostPort);
    const w = await workspace();
    await setDeskRef(w, ref);
    const problems = await loadProblems(loadSpec(w.spec));
    expect(problems.join('\n'), JSON.stringify(ref)).toMatch(
      new RegExp(`openapi\\.yaml at ${DESK_REF_POINTER.replace(/\$/g, '\\$')}: \\$ref ".*" names a remote document`),
    );
    expect(hits).toEqual([]);
  });
});

describe('the spec reaches no file outside its folder: resolved as the bundler resolves it', () => {
  let w: Workspace;
  beforeAll(async () => {
    w = await workspace();
    await writeFile(path.join(w.dir, 'outside.yaml'), OUTSIDE);
    await mkdir(path.join(w.dir, 'elsewhere'));
    await writeFile(path.join(w.dir, 'elsewhere', 'desk.yaml'), OUTSIDE);
    await symlink(path.join(w.dir, 'outside.yaml'), path.join(w.specDir, 'link-out.yaml'));
    await symlink(path.join(w.dir, 'elsewhere'), path.join(w.specDir, 'dir-out'));
    await symlink(path.join(w.specDir, 'schemas', 'desk.yaml'), path.join(w.specDir, 'link-in.yaml'));
  });
  const CASES: [string, (w: Workspace) => string, RegExp][] = [
    ['an absolute path', () => '/etc/passwd', /resolves to \/etc\/passwd, outside the spec's folder/],
    ['/proc', () => '/proc/self/environ', /resolves to \/proc\/self\/environ, outside the spec's folder/],
    ['a file: URL', () => 'file:///etc/passwd', /resolves to \/etc\/passwd, outside/],
    ['a file: URL without slashes', () => 'file:/etc/passwd', /resolves to \/etc\/passwd, outside/],
    ['a file: URL in capitals', () => 'FILE:///etc/passwd', /resolves to \/etc\/passwd, outside/],
    ['..', () => '../outside.yaml', /resolves to .*outside\.yaml, outside the spec's folder/],
    ['%2e%2e', () => '%2e%2e/outside.yaml', /resolves to .*outside\.yaml, outside/],
    ['.%2E', () => '.%2E/outside.yaml', /resolves to .*outside\.yaml, outside/],
    ['.. inside a path', () => 'schemas/../../outside.yaml', /resolves to .*outside\.yaml, outside/],
    ['backslashes', () => 'schemas\\..\\..\\outside.yaml', /resolves to .*outside\.yaml, outside/],
    ['a leading space', () => ' ../outside.yaml', /resolves to .*outside\.yaml, outside/],
    [
      'the absolute path of an outside file',
      (w) => path.join(w.dir, 'outside.yaml'),
      /resolves to .*outside\.yaml, outside/,
    ],
    [
      'a symlink to an outside file',
      () => './link-out.yaml',
      /resolves to .*link-out\.yaml, a symlink to .*outside\.yaml, outside the spec's folder/,
    ],
    [
      'a path through a symlinked folder',
      () => './dir-out/desk.yaml',
      /resolves to .*dir-out\/desk\.yaml, a symlink to .*elsewhere\/desk\.yaml, outside/,
    ],
    // No "://": the bundler takes it for a path, relative to the working folder.
    [
      'a data: URL',
      () => 'data:application/yaml,type: object',
      /resolves to .*data:application\/yaml,type: object, outside the spec's folder/,
    ],
    ['a Windows drive', () => 'c:/windows/win.ini', /resolves to .*c:\/windows\/win\.ini, outside the spec's folder/],
  ];
  it.each(CASES)('%s', async (name, refOf, reason) => {
    const ref = refOf(w);
    await setDeskRef(w, ref);
    const problems = (await loadProblems(loadSpec(w.spec))).join('\n');
    expect(problems, name).toContain(`openapi.yaml at ${DESK_REF_POINTER}: $ref ${JSON.stringify(ref)}`);
    expect(problems, name).toMatch(reason);
    expect(problems).not.toContain('OUTSIDE-SECRET');
    await writeFile(
      w.spec,
      (await readFile(w.spec, 'utf8')).replace(`$ref: ${JSON.stringify(ref)}`, "$ref: './schemas/desk.yaml'"),
    );
  });

  it('a $ref of a file inside that leads out is placed in that file', async () => {
    const v = await workspace();
    await writeFile(path.join(v.dir, 'outside.yaml'), OUTSIDE);
    await writeFile(path.join(v.specDir, 'schemas', 'desk.yaml'), "$ref: '../../outside.yaml'\n");
    const problems = (await loadProblems(loadSpec(v.spec))).join('\n');
    expect(problems).toMatch(
      /schemas\/desk\.yaml at \/\$ref: \$ref "\.\.\/\.\.\/outside\.yaml" resolves to .*outside\.yaml, outside the spec's folder/,
    );
  });

  it('a FIFO, a directory or a missing file named by a $ref is a load error, never a hang', async () => {
    const v = await workspace();
    execFileSync('mkfifo', [path.join(v.specDir, 'fifo.yaml')]);
    await mkdir(path.join(v.specDir, 'dir.yaml'));
    let text = await readFile(v.spec, 'utf8');
    const refs: [string, string][] = [
      ["$ref: './schemas/desk.yaml'", "$ref: './fifo.yaml'"],
      ["$ref: './schemas/error.yaml#/Error'", "$ref: './dir.yaml'"],
      ["$ref: './schemas/list-envelope.yaml'", "$ref: './none.yaml'"],
    ];
    for (const [from, to] of refs) {
      // Each $ref is in the bundled spec: the case tests what it says it tests.
      expect(text).toContain(from);
      text = text.replace(from, to);
    }
    await writeFile(v.spec, text);
    const problems = (await loadProblems(loadSpec(v.spec))).join('\n');
    expect(problems).toMatch(/fifo\.yaml: cannot read the file: a FIFO \(named pipe\), not a regular file/);
    expect(problems).toMatch(/dir\.yaml: cannot read the file \(EISDIR\): a directory, not a regular file/);
    expect(problems).toMatch(
      /none\.yaml: cannot read the file \(ENOENT\), named by \$ref "\.\/none\.yaml" in .*openapi\.yaml at \/components\/schemas\/ListEnvelope\/\$ref/,
    );
  });

  it('a symlink inside the folder to a file inside it is followed, and other spellings of an inside path load', async () => {
    for (const ref of [
      './link-in.yaml',
      'schemas/%64esk.yaml',
      './schemas/./desk.yaml',
      'schemas//desk.yaml',
      ' ./schemas/desk.yaml',
    ]) {
      await setDeskRef(w, ref);
      const spec = await loadSpec(w.spec);
      expect(JSON.stringify(spec.doc), ref).toContain('held_today');
      await writeFile(
        w.spec,
        (await readFile(w.spec, 'utf8')).replace(`$ref: ${JSON.stringify(ref)}`, "$ref: './schemas/desk.yaml'"),
      );
    }
  });
});

describe("the bundler's own resolver enforces the same confinement, whatever the pre-scan missed", () => {
  it('refuses a remote or outside reference even when nothing was read before', async () => {
    const w = await workspace();
    await writeFile(path.join(w.dir, 'outside.yaml'), OUTSIDE);
    const folder = await folderOf(w.specDir, "the spec's folder");
    for (const ref of [`http://127.0.0.1:${hostPort}/evil.yaml`, ' ../outside.yaml', 'file:///etc/passwd']) {
      await writeFile(
        path.join(w.specDir, 'root.yaml'),
        `openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    X:\n      $ref: ${JSON.stringify(ref)}\n`,
      );
      const options = confinedResolveOptions(folder, DEFAULT_LOAD_LIMITS, new Map());
      await expect(SwaggerParser.bundle(path.join(w.specDir, 'root.yaml'), options as never), ref).rejects.toThrow(
        /names a remote document|outside the spec's folder/,
      );
    }
    expect(hits).toEqual([]);
  });

  it('reads exactly the files the pre-scan checked (the two resolve alike)', async () => {
    const w = await workspace();
    const text = await readFile(w.spec, 'utf8');
    // Several spellings of the same files: the bundler must find no file the pre-scan did not.
    await writeFile(
      w.spec,
      text
        .replace("$ref: './schemas/desk.yaml'", "$ref: 'schemas/%64esk.yaml'")
        .replace("$ref: './schemas/error.yaml'", "$ref: ' ./schemas/./error.yaml'")
        .replace("$ref: './schemas/items.yaml#/Signature'", "$ref: 'schemas\\\\items.yaml#/Signature'"),
    );
    const spec = await loadSpec(w.spec);
    const asked = new Set<string>();
    const known = new (class extends Map<string, string> {
      override get(k: string) {
        asked.add(k);
        return super.get(k);
      }
    })();
    for (const f of spec.files) known.set(f, await readFile(f, 'utf8'));
    let unforeseen = 0;
    const options = confinedResolveOptions(
      await folderOf(w.specDir, "the spec's folder"),
      DEFAULT_LOAD_LIMITS,
      known,
      undefined,
      true,
      () => unforeseen++,
    );
    const bundled = await SwaggerParser.bundle(w.spec, options as never);
    expect([...asked].sort()).toEqual([...spec.files].sort());
    expect(bundled).toEqual(spec.doc);
    // A file read that the pre-scan did not is told (then the spec's scan is a walk of its bundle).
    expect(unforeseen).toBe(0);
    await SwaggerParser.bundle(
      w.spec,
      confinedResolveOptions(
        await folderOf(w.specDir, "the spec's folder"),
        DEFAULT_LOAD_LIMITS,
        new Map(),
        undefined,
        true,
        () => unforeseen++,
      ) as never,
    );
    expect(unforeseen).toBeGreaterThanOrEqual(spec.files.length);
  });
});

describe('fixtures are regular files inside the fixtures folder', () => {
  const fixtureProblems = async (w: Workspace) =>
    (
      await loadProblems(loadState({ specFile: w.spec, fixturesDir: w.fixtures, seed: 1, defaultGenerateCount: 25 }))
    ).join('\n');

  it('a FIFO named desk.json is a load error, never a hang', async () => {
    const w = await workspace();
    await unlink(path.join(w.fixtures, 'desk.json'));
    execFileSync('mkfifo', [path.join(w.fixtures, 'desk.json')]);
    expect(await fixtureProblems(w)).toMatch(
      /fixtures\/desk\.json: cannot read the file: a FIFO \(named pipe\), not a regular file/,
    );
  });

  it('a directory named desk.json is a load error', async () => {
    const w = await workspace();
    await unlink(path.join(w.fixtures, 'desk.json'));
    await mkdir(path.join(w.fixtures, 'desk.json'));
    expect(await fixtureProblems(w)).toMatch(
      /fixtures\/desk\.json: cannot read the file \(EISDIR\): a directory, not a regular file/,
    );
  });

  it.each([
    ['a device', '/dev/zero', /fixtures\/desk\.json: a symlink to \/dev\/zero, outside the fixtures folder/],
    [
      'a file outside',
      '../outside.json',
      /fixtures\/desk\.json: a symlink to .*outside\.json, outside the fixtures folder/,
    ],
    ['/etc/passwd', '/etc/passwd', /fixtures\/desk\.json: a symlink to \/etc\/passwd, outside the fixtures folder/],
    [
      'nothing',
      'gone.json',
      /fixtures\/desk\.json: cannot read the file \(ENOENT\): a symlink to a file that does not exist/,
    ],
  ])('a symlink to %s is a load error', async (_n, target, message) => {
    const w = await workspace();
    await writeFile(path.join(w.dir, 'outside.json'), '[]');
    await unlink(path.join(w.fixtures, 'desk.json'));
    await symlink(target, path.join(w.fixtures, 'desk.json'));
    expect(await fixtureProblems(w)).toMatch(message);
  });

  it('a symlink to a file inside the folder is read', async () => {
    const w = await workspace();
    await mkdir(path.join(w.fixtures, 'data'));
    const desks = JSON.parse(await readFile(path.join(w.fixtures, 'desk.json'), 'utf8')) as unknown[];
    await writeFile(path.join(w.fixtures, 'data', 'desks.json'), JSON.stringify(desks.slice(0, 3)));
    await unlink(path.join(w.fixtures, 'desk.json'));
    await symlink('data/desks.json', path.join(w.fixtures, 'desk.json'));
    const state = await loadState({ specFile: w.spec, fixturesDir: w.fixtures, seed: 1, defaultGenerateCount: 25 });
    expect(state.snapshot.collections['/api/v1/desk']?.items).toHaveLength(3);
  });

  it('a fixture over the size limit is a load error, read no further than the limit', async () => {
    const w = await workspace();
    const problems: { file: string; pointer: string; reason: string }[] = [];
    const limits = { ...DEFAULT_LOAD_LIMITS, maxFileBytes: 1024 };
    const read = await readFixture(path.join(w.fixtures, 'desk.json'), problems, {
      limits,
      doc: {},
      checkOf: () => {
        throw new Error('no item is read');
      },
    });
    expect(read).toEqual({ kind: 'failed' });
    expect(problems).toEqual([
      {
        file: expect.stringMatching(/fixtures\/desk\.json$/),
        pointer: '',
        reason: expect.stringMatching(/^cannot read the file: [\d.]+ KiB, more than the limit of 1 KiB$/),
      },
    ]);
    expect(DEFAULT_LOAD_LIMITS.maxFileBytes).toBe(512 * 2 ** 20);
  });
});

describe('the root of the spec is the file named, wherever a symlink of that name leads', () => {
  it('loads a root that is a symlink to a file elsewhere, and confines its references to the folder of the link', async () => {
    const w = await workspace();
    await mkdir(path.join(w.dir, 'shared'));
    await writeFile(path.join(w.dir, 'shared', 'openapi.yaml'), await readFile(w.spec, 'utf8'));
    await unlink(w.spec);
    await symlink(path.join(w.dir, 'shared', 'openapi.yaml'), w.spec);
    const spec = await loadSpec(w.spec);
    expect(JSON.stringify(spec.doc)).toContain('held_today');
    await writeFile(
      path.join(w.dir, 'shared', 'openapi.yaml'),
      (await readFile(w.spec, 'utf8')).replace("$ref: './schemas/desk.yaml'", "$ref: '../shared/openapi.yaml'"),
    );
    expect((await loadProblems(loadSpec(w.spec))).join('\n')).toMatch(
      /resolves to .*shared\/openapi\.yaml, outside the spec's folder/,
    );
  });
});
