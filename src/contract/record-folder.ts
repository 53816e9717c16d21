import { escapeRegExp } from './safe-text.js';
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import {
  chmod,
  copyFile,
  link,
  lstat,
  mkdir,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  symlink,
} from 'node:fs/promises';
import path from 'node:path';

/**
 * A recording is written whole: into a staging folder beside `--out`, which takes `--out`'s place
 * only at the end, so that an interruption (SIGINT, SIGTERM, SIGKILL, a full disk) leaves the
 * previous recording or nothing, never a mix. Nothing is ever written into `--out` itself, so no
 * symlink placed there is followed; one where the recording writes a file is refused, not
 * replaced. Files of `--out` that the recording does not write (fixtures of collections left out
 * by --only, a README) are carried into the new folder: hard links, symlinks copied as links.
 */
export interface Stage {
  /** The folder the recording replaces (`--out`, its symlinks resolved). */
  readonly out: string;
  /** The staging folder, beside it. */
  readonly dir: string;
  /** `out` held something before: it is replaced, its other files carried over. */
  readonly existed: boolean;
}

type Staged = { ok: true; stage: Stage } | { ok: false; error: string };

const suffix = () => `${process.pid}-${randomBytes(4).toString('hex')}`;

/** `.<out>.recording-<pid>-<hex>` (a stage) and `.<out>.previous-<pid>-<hex>` (the folder being replaced). */
function sideName(out: string, kind: 'recording' | 'previous'): string {
  return path.join(path.dirname(out), `.${path.basename(out)}.${kind}-${suffix()}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const lstatOrUndefined = (file: string) => lstat(file).catch(() => undefined);

/**
 * What a recorder killed before its end left beside `out`: its stage is removed; the folder it was
 * replacing, caught between the two renames, is put back where `out` is missing.
 */
async function cleanUpAfterKilled(out: string): Promise<void> {
  const pattern = new RegExp(`^\\.${escapeRegExp(path.basename(out))}\\.(recording|previous)-(\\d+)-[0-9a-f]+$`);
  for (const name of await readdir(path.dirname(out)).catch(() => [] as string[])) {
    const m = pattern.exec(name);
    if (!m || alive(Number(m[2]))) continue;
    const side = path.join(path.dirname(out), name);
    if (m[1] === 'previous' && !(await lstatOrUndefined(out))) await rename(side, out);
    else await rm(side, { recursive: true, force: true });
  }
}

/**
 * Checks `--out` and makes the stage beside it: `--out` is a folder or missing; no file the
 * recording writes (`targets`) is a symlink there; none exists without `force`.
 */
export async function openStage(outDir: string, targets: readonly string[], force: boolean): Promise<Staged> {
  let out = path.resolve(outDir);
  const given = await lstatOrUndefined(out);
  if (given?.isSymbolicLink()) {
    // --out itself may be a link to the folder: the folder is replaced, the link kept.
    const real = await realpath(out).catch(() => undefined);
    if (real === undefined) return { ok: false, error: `${out} is a symbolic link to nothing` };
    out = real;
  }
  await mkdir(path.dirname(out), { recursive: true });
  await cleanUpAfterKilled(out);
  const before = await lstatOrUndefined(out);
  if (before && !before.isDirectory()) return { ok: false, error: `${out} is not a folder` };
  if (before) {
    const links: string[] = [];
    const existing: string[] = [];
    for (const name of targets) {
      const s = await lstatOrUndefined(path.join(out, name));
      if (s?.isSymbolicLink()) links.push(name);
      else if (s) existing.push(name);
    }
    if (links.length > 0)
      return {
        ok: false,
        error: `${out} holds ${links.join(', ')} as a symbolic link: record never writes through one or replaces it (remove it, or record into another folder)`,
      };
    if (existing.length > 0 && !force)
      return { ok: false, error: `${out} already holds ${existing.join(', ')} (--force overwrites)` };
  }
  const dir = sideName(out, 'recording');
  await mkdir(dir);
  if (before) await chmod(dir, before.mode & 0o7777);
  return { ok: true, stage: { out, dir, existed: before !== undefined } };
}

/** One entry of the folder before, into the stage: never followed, never copied where a link will do. */
async function carry(from: string, to: string): Promise<boolean> {
  const s = await lstat(from);
  if (s.isSymbolicLink()) await symlink(await readlink(from), to);
  else if (s.isDirectory()) {
    await mkdir(to, { mode: s.mode & 0o7777 });
    for (const name of await readdir(from)) await carry(path.join(from, name), path.join(to, name));
  } else if (s.isFile()) {
    await link(from, to).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EXDEV' && e.code !== 'EPERM' && e.code !== 'EMLINK') throw e;
      await copyFile(from, to);
    });
  } else return false; // a socket or a FIFO: nothing a fixtures folder holds
  return true;
}

/** Carries what `--out` held besides `targets` into the stage; answers the names carried. */
export async function carryOver(stage: Stage, targets: readonly string[]): Promise<string[]> {
  if (!stage.existed) return [];
  const skip = new Set(targets);
  const carried: string[] = [];
  for (const name of (await readdir(stage.out)).sort()) {
    if (skip.has(name)) continue;
    if (await carry(path.join(stage.out, name), path.join(stage.dir, name))) carried.push(name);
  }
  return carried;
}

/**
 * The stage takes `--out`'s place. The two renames are synchronous, so that no signal handler
 * runs between them; a SIGKILL there leaves `--out` missing and the folder before beside it,
 * which the next recording puts back (cleanUpAfterKilled).
 */
export async function commitStage(stage: Stage): Promise<void> {
  let previous: string | undefined = sideName(stage.out, 'previous');
  try {
    renameSync(stage.out, previous);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    previous = undefined;
  }
  try {
    renameSync(stage.dir, stage.out);
  } catch (e) {
    if (previous) renameSync(previous, stage.out);
    throw e;
  }
  if (previous) await rm(previous, { recursive: true, force: true });
}

/** Removes a stage that will not be committed. Synchronous: a signal handler calls it before the process ends. */
export function discardStage(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
