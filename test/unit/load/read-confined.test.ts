import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../../src/load/limits.js';
import { rel } from '../../../src/load/paths.js';
import { type Folder, folderOf, isInside, openConfined, readConfinedText } from '../../../src/load/read-confined.js';

describe('isInside: a path is the folder or under it', () => {
  it.each<[string, string, boolean]>([
    ['/a/b', '/a/b', true],
    ['/a/b/c.json', '/a/b', true],
    ['/a/b/c.json', '/a/b/', true],
    ['/a/bc.json', '/a/b', false],
    ['/a', '/a/b', false],
    ['/x/a/b', '/a/b', false],
  ])('%s in %s: %j', (file, dir, want) => {
    expect(isInside(file, dir)).toBe(want);
  });
});

// A folder `in` with files of every kind, and a file beside it, outside.
let root: string;
let folder: Folder;
beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'confined-')));
  const dir = path.join(root, 'in');
  await mkdir(path.join(dir, 'sub'), { recursive: true });
  await writeFile(path.join(dir, 'ok.json'), '[1]');
  await writeFile(path.join(dir, 'big.json'), 'x'.repeat(20));
  await writeFile(path.join(dir, 'latin1.yaml'), Buffer.from([0x61, 0x3a, 0x20, 0xe9, 0x0a]));
  await writeFile(path.join(root, 'outside.json'), '"secret"');
  await symlink(path.join(dir, 'ok.json'), path.join(dir, 'link-in.json'));
  await symlink(path.join(root, 'outside.json'), path.join(dir, 'link-out.json'));
  await symlink(path.join(dir, 'gone.json'), path.join(dir, 'dangling.json'));
  folder = await folderOf(dir, 'the fixtures folder');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('folderOf', () => {
  it('the folder as named and as it really is', async () => {
    const link = path.join(root, 'alias');
    await symlink(path.join(root, 'in'), link);
    expect(await folderOf(link, 'x')).toEqual({ lexical: link, real: path.join(root, 'in'), label: 'x' });
    expect(await folderOf(path.join(root, 'none'), 'y')).toEqual({
      lexical: path.join(root, 'none'),
      real: path.join(root, 'none'),
      label: 'y',
    });
  });
});

describe('readConfinedText: a regular UTF-8 file inside the folder, or why not', () => {
  const small = { ...DEFAULT_LOAD_LIMITS, maxFileBytes: 10 };
  it.each<[string, string, object]>([
    ['a file inside', 'in/ok.json', { ok: true, text: '[1]', real: 'in/ok.json' }],
    ['a symlink to a file inside', 'in/link-in.json', { ok: true, text: '[1]', real: 'in/ok.json' }],
    [
      'a name leading out',
      'in/../outside.json',
      {
        ok: false,
        kind: 'outside',
        place: '',
        reason: 'outside the fixtures folder (IN): only files inside it are read',
      },
    ],
    [
      'a symlink leading out',
      'in/link-out.json',
      {
        ok: false,
        kind: 'outside',
        place: '',
        reason: 'a symlink to OUTSIDE, outside the fixtures folder (IN): only files inside it are read',
      },
    ],
    [
      'no such file',
      'in/absent.json',
      { ok: false, kind: 'missing', place: '', reason: 'cannot read the file (ENOENT)' },
    ],
    [
      'a symlink to nothing',
      'in/dangling.json',
      {
        ok: false,
        kind: 'unreadable',
        place: '',
        reason: 'cannot read the file (ENOENT): a symlink to a file that does not exist',
      },
    ],
    [
      'a folder',
      'in/sub',
      {
        ok: false,
        kind: 'unreadable',
        place: '',
        reason: 'cannot read the file (EISDIR): a directory, not a regular file',
      },
    ],
    [
      'over the size limit',
      'in/big.json',
      {
        ok: false,
        kind: 'unreadable',
        place: '',
        reason: 'cannot read the file: 20 bytes, more than the limit of 10 bytes',
      },
    ],
    [
      'not UTF-8: placed',
      'in/latin1.yaml',
      {
        ok: false,
        kind: 'unreadable',
        place: 'line 1:4',
        reason: 'is not valid UTF-8 (byte E9): save the file as UTF-8',
      },
    ],
  ])('%s', async (_name, file, want) => {
    const got = await readConfinedText(path.join(root, file), folder, small);
    const named = (s: string) =>
      s.replace(rel(folder.lexical), 'IN').replace(path.join(root, 'outside.json'), 'OUTSIDE');
    const shown = got.ok ? { ...got, real: path.relative(root, got.real) } : { ...got, reason: named(got.reason) };
    expect(shown).toEqual(want);
  });
});

describe('openConfined: the same checks, a handle to read', () => {
  it('opens a regular file inside, with its size; the caller reads and closes it', async () => {
    const opened = await openConfined(path.join(root, 'in/ok.json'), folder, DEFAULT_LOAD_LIMITS);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    try {
      expect(opened.size).toBe(3);
      expect(opened.real).toBe(path.join(root, 'in/ok.json'));
      expect((await opened.handle.readFile()).toString()).toBe('[1]');
    } finally {
      await opened.handle.close();
    }
  });

  it('refuses what readConfinedText refuses, with the same reason', async () => {
    const file = path.join(root, 'in/link-out.json');
    const opened = await openConfined(file, folder, DEFAULT_LOAD_LIMITS);
    const read = await readConfinedText(file, folder, DEFAULT_LOAD_LIMITS);
    expect(opened).toEqual(read);
    expect(opened.ok).toBe(false);
  });
});
