import {
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { carryOver, commitStage, discardStage, openStage, type Stage } from '../../../src/contract/record-folder.js';

let dir: string;
let out: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'record-folder-'));
  out = path.join(dir, 'fixtures');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const TARGETS = ['desk.json', 'recording.yaml'];
async function stage(force = false): Promise<Stage> {
  const s = await openStage(out, TARGETS, force);
  if (!s.ok) throw new Error(s.error);
  return s.stage;
}
const names = async (d: string) => (await readdir(d)).sort();

describe('openStage: --out checked, a stage made beside it', () => {
  it('a missing --out: its folder made, the stage beside it, nothing in --out', async () => {
    out = path.join(dir, 'a', 'b', 'fixtures');
    const s = await stage();
    expect([s.out, s.existed]).toEqual([out, false]);
    expect(path.basename(s.dir)).toMatch(new RegExp(`^\\.fixtures\\.recording-${process.pid}-[0-9a-f]{8}$`));
    expect(path.dirname(s.dir)).toBe(path.dirname(out));
    expect(await names(path.dirname(out))).toEqual([path.basename(s.dir)]);
  });

  it('an existing folder: the stage takes its mode', async () => {
    await mkdir(out, { mode: 0o750 });
    const s = await stage();
    expect(s.existed).toBe(true);
    expect((await stat(s.dir)).mode & 0o777).toBe(0o750);
  });

  it.each<[string, () => Promise<void>, boolean, RegExp]>([
    ['--out is a file', () => writeFile(out, 'x'), false, /fixtures is not a folder$/],
    ['--out links to nothing', () => symlink(path.join(dir, 'gone'), out), false, /is a symbolic link to nothing$/],
    [
      'a target is a symlink',
      async () => (await mkdir(out), symlink('/etc/passwd', path.join(out, 'desk.json'))),
      true,
      /holds desk\.json as a symbolic link: record never writes through one/,
    ],
    [
      'a target exists, no --force',
      async () => (await mkdir(out), writeFile(path.join(out, 'desk.json'), '[]')),
      false,
      /already holds desk\.json \(--force overwrites\)$/,
    ],
  ])('refused: %s', async (_name, make, force, error) => {
    await make();
    const r = await openStage(out, TARGETS, force);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
    expect((await names(dir)).filter((n) => n.includes('.recording-'))).toEqual([]);
  });

  it('a target that exists is replaced with --force', async () => {
    await mkdir(out);
    await writeFile(path.join(out, 'desk.json'), '[]');
    expect((await openStage(out, TARGETS, true)).ok).toBe(true);
  });

  it('--out a link to a folder: the folder is what is replaced, the link stays', async () => {
    const real = path.join(dir, 'real');
    await mkdir(real);
    await symlink(real, out);
    const s = await stage();
    expect(s.out).toBe(real);
    await writeFile(path.join(s.dir, 'desk.json'), '[1]');
    await commitStage(s);
    expect(await readlink(out)).toBe(real);
    expect(await readFile(path.join(out, 'desk.json'), 'utf8')).toBe('[1]');
  });

  it('what a killed recorder left is cleaned up: its stage removed, the folder it replaced put back', async () => {
    const dead = 4_194_304 + 17; // above Linux's largest pid: no process has it
    await mkdir(path.join(dir, `.fixtures.recording-${dead}-abcd`));
    await mkdir(path.join(dir, `.fixtures.previous-${dead}-ef01`));
    await writeFile(path.join(dir, `.fixtures.previous-${dead}-ef01`, 'old.json'), '[]');
    const alive = `.fixtures.recording-${process.pid}-0000`;
    await mkdir(path.join(dir, alive));
    const s = await stage();
    expect(await names(dir)).toEqual([alive, path.basename(s.dir), 'fixtures'].sort());
    expect(await names(out)).toEqual(['old.json']);
  });
});

describe('carryOver, commitStage, discardStage', () => {
  it('carries what --out held besides the targets: files linked, links as links, folders whole', async () => {
    await mkdir(path.join(out, 'notes'), { recursive: true });
    await writeFile(path.join(out, 'README.md'), 'keep');
    await writeFile(path.join(out, 'notes', 'a.txt'), 'a');
    await symlink('README.md', path.join(out, 'link.md'));
    await writeFile(path.join(out, 'desk.json'), '[old]');
    const s = await stage(true);
    expect(await carryOver(s, TARGETS)).toEqual(['README.md', 'link.md', 'notes']);
    expect((await stat(path.join(s.dir, 'README.md'))).ino).toBe((await stat(path.join(out, 'README.md'))).ino);
    expect(await readlink(path.join(s.dir, 'link.md'))).toBe('README.md');
    expect(await readFile(path.join(s.dir, 'notes', 'a.txt'), 'utf8')).toBe('a');
    expect(await names(s.dir)).toEqual(['README.md', 'link.md', 'notes']);
  });

  it('nothing to carry from a folder that was not there', async () => {
    expect(await carryOver(await stage(), TARGETS)).toEqual([]);
  });

  it('commit: the stage takes --out’s place whole; nothing is left beside it', async () => {
    await mkdir(out);
    await writeFile(path.join(out, 'desk.json'), '[old]');
    await link(path.join(out, 'desk.json'), path.join(dir, 'held'));
    const s = await stage(true);
    await writeFile(path.join(s.dir, 'desk.json'), '[new]');
    await commitStage(s);
    expect(await names(dir)).toEqual(['fixtures', 'held']);
    expect(await readFile(path.join(out, 'desk.json'), 'utf8')).toBe('[new]');
    // The file of the folder before was never written to.
    expect(await readFile(path.join(dir, 'held'), 'utf8')).toBe('[old]');
  });

  it('discard: the stage removed, --out as it was', async () => {
    await mkdir(out);
    const s = await stage();
    await writeFile(path.join(s.dir, 'desk.json'), '[]');
    discardStage(s.dir);
    expect(await names(dir)).toEqual(['fixtures']);
    expect(await lstat(s.dir).catch((e: NodeJS.ErrnoException) => e.code)).toBe('ENOENT');
  });
});
