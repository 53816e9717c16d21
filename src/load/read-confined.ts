import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LoadLimits } from './limits.js';
import { formatBytes } from '../openapi/words.js';
import { rel } from './paths.js';
import { decodeUtf8 } from './text-checks.js';

/** A folder that files are read from: as named (lexical) and with its symlinks resolved (real). */
export interface Folder {
  readonly lexical: string;
  readonly real: string;
  /** How messages name it: "the spec's folder", "the fixtures folder". */
  readonly label: string;
}

export async function folderOf(dir: string, label: string): Promise<Folder> {
  const lexical = path.resolve(dir);
  const real = await realpath(lexical).catch(() => lexical);
  return { lexical, real, label };
}

/** `file` is `dir` or inside it (both absolute and normalized). */
export function isInside(file: string, dir: string): boolean {
  return file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`);
}

/** `outside`: the name leads out of the folder (said where the name stands); `missing`: no such file. */
type Refused = { ok: false; kind: 'outside' | 'missing' | 'unreadable'; place: string; reason: string };

export type ConfinedRead = { ok: true; text: string; real: string } | Refused;

/** A refusal of the whole file (no place in it). */
const refused = (kind: Refused['kind'], reason: string): Refused => ({ ok: false, kind, place: '', reason });

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

function notRegular(st: Stats): Refused {
  return refused(
    'unreadable',
    `cannot read the file${st.isDirectory() ? ' (EISDIR)' : ''}: ${kindOf(st)}, not a regular file`,
  );
}

const tooBig = (limits: LoadLimits, size?: number): Refused =>
  refused(
    'unreadable',
    `cannot read the file: ${size === undefined ? '' : `${formatBytes(size)}, `}more than the limit of ${formatBytes(limits.maxFileBytes)}`,
  );

export type ConfinedOpen = { ok: true; handle: FileHandle; size: number; real: string } | Refused;

/**
 * Opens a file that must be a regular file inside `folder`, symlinks resolved: a name or a
 * symlink leading out of the folder, a FIFO, a device, a directory or a file over the size limit
 * is refused with a reason, never opened for reading (a FIFO is never opened for a blocking read,
 * so it cannot hang start-up or `--watch`). The caller closes the handle.
 */
export async function openConfined(file: string, folder: Folder, limits: LoadLimits): Promise<ConfinedOpen> {
  const abs = path.resolve(file);
  if (!isInside(abs, folder.lexical) && !isInside(abs, folder.real))
    return refused('outside', `outside ${folder.label} (${rel(folder.lexical)}): only files inside it are read`);
  let real: string;
  try {
    real = await realpath(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    const link = await lstat(abs).catch(() => undefined);
    if (code === 'ENOENT' && link?.isSymbolicLink())
      return refused('unreadable', 'cannot read the file (ENOENT): a symlink to a file that does not exist');
    return refused(code === 'ENOENT' ? 'missing' : 'unreadable', `cannot read the file (${code})`);
  }
  if (!isInside(real, folder.real))
    return refused(
      'outside',
      `a symlink to ${real}, outside ${folder.label} (${rel(folder.lexical)}): only files inside it are read`,
    );
  try {
    const st = await stat(real);
    if (!st.isFile()) return notRegular(st);
    if (st.size > limits.maxFileBytes) return tooBig(limits, st.size);
    // O_NONBLOCK: should the name be swapped for a FIFO after the stat, opening it does not wait for a writer.
    const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const fst = await handle.stat();
    if (!fst.isFile() || fst.size > limits.maxFileBytes) {
      await handle.close();
      return fst.isFile() ? tooBig(limits, fst.size) : notRegular(fst);
    }
    return { ok: true, handle, size: fst.size, real };
  } catch (e) {
    return unreadable(e);
  }
}

/** A file the system would not read: its error code. */
function unreadable(e: unknown): Refused {
  return refused('unreadable', `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
}

/**
 * Reads a text file that must be a regular file inside `folder` (see openConfined), over the size
 * limit or not UTF-8 refused with a reason.
 */
export async function readConfinedText(file: string, folder: Folder, limits: LoadLimits): Promise<ConfinedRead> {
  const opened = await openConfined(file, folder, limits);
  if (!opened.ok) return opened;
  const { handle: fh, size, real } = opened;
  try {
    let buf = Buffer.allocUnsafe(Math.min(size, limits.maxFileBytes) + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (n > limits.maxFileBytes) return tooBig(limits);
        const bigger = Buffer.allocUnsafe(Math.min(limits.maxFileBytes + 1, buf.length * 2));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > limits.maxFileBytes) return tooBig(limits);
    const decoded = decodeUtf8(buf.subarray(0, n));
    if (!decoded.ok) return { ok: false, kind: 'unreadable', place: decoded.place, reason: decoded.reason };
    return { ok: true, text: decoded.text, real };
  } catch (e) {
    return unreadable(e);
  } finally {
    await fh.close();
  }
}
