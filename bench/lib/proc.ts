// Processes the bench starts: each in a process group of its own, so that a wrapper's children
// (npm, java under a node launcher) go with it; every group is stopped on the way out, also on
// Ctrl-C, SIGTERM and errors. Plus the small HTTP client and /proc readings the bench uses.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { type Agent, request } from 'node:http';
import { availableParallelism } from 'node:os';

export interface Started {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  /** Output of the process so far (stdout and stderr, the last 256 KiB of each). */
  out(): string;
  /** Bytes and lines the process wrote to stdout: its log (from the pipe the bench drains, or the file it writes to). */
  stdoutBytes(): number;
  stdoutLines(): number;
  /** Resolves once `pattern` appears in the output written after this call. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<boolean>;
  exited(): boolean;
}

const live = new Map<number, ChildProcess>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Stops one started process group: SIGTERM, then SIGKILL after `graceMs`. */
export async function stop(p: Started | undefined, graceMs = 3000): Promise<void> {
  if (!p) return;
  const { child, pid } = p;
  if (child.exitCode === null && child.signalCode === null) {
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    killGroup(pid, 'SIGTERM');
    // One paused (`pause`) takes its SIGTERM once it runs again.
    killGroup(pid, 'SIGCONT');
    const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }
  // A grandchild that outlived its parent (a launcher's java, say) goes too.
  killGroup(pid, 'SIGKILL');
  live.delete(pid);
}

/**
 * Pauses a process group (SIGSTOP) or lets it run again (SIGCONT): while one server is loaded the
 * others are paused, so that nothing an idle server does in the background (a JVM compiling or
 * collecting after its round) runs beside it.
 */
export function pause(p: Started): void {
  killGroup(p.pid, 'SIGSTOP');
}
export function resume(p: Started): void {
  killGroup(p.pid, 'SIGCONT');
}

/** Stops every process group still running, at once (on exit, Ctrl-C, errors). */
export function stopAllNow(): void {
  for (const pid of live.keys()) killGroup(pid, 'SIGKILL');
  live.clear();
}

const scratch = new Set<string>();
/** A temporary folder removed when the bench exits, however it exits (`keep` undoes it). */
export function removeOnExit(dir: string, keep = false): void {
  if (keep) scratch.delete(dir);
  else scratch.add(dir);
}

let handlersInstalled = false;
export function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    stopAllNow();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: stopping ${live.size} process group(s) the bench started\n`);
      stopAllNow();
      process.exit(code);
    });
  }
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** A pipe for its standard input (closed by the bench to tell it to finish); else none. */
  stdin?: boolean;
  /**
   * Its stdout goes to this file, not to a pipe the bench drains: under load a server's request
   * log is megabytes, and reading them would take the load generator's thread (and core) from the
   * load, for that server only. The file is read when asked (its size, its lines, its tail).
   */
  stdoutFile?: string;
}

/** Starts `cmd args` in its own process group; stdout and stderr go to pipes the bench drains (stdout to a file with `stdoutFile`). */
export function startProcess(
  name: string,
  cmd: string,
  args: string[],
  port: number,
  opts: SpawnOptions = {},
): Started {
  const outFd = opts.stdoutFile === undefined ? undefined : openSync(opts.stdoutFile, 'w');
  let child: ChildProcess;
  try {
    child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: [opts.stdin ? 'pipe' : 'ignore', outFd ?? 'pipe', 'pipe'],
      detached: true,
    });
  } finally {
    if (outFd !== undefined) closeSync(outFd);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${name}: could not be spawned (${cmd})`);
  live.set(pid, child);
  child.once('exit', () => live.delete(pid));
  let bytes = 0;
  let lines = 0;
  const waiters = new Set<{ pattern: RegExp; from: number; resolve: (ok: boolean) => void }>();
  let written = 0;
  // The last TAIL characters of the output, as chunks joined when read: a server logging every
  // request under load writes megabytes, and the bench (whose thread also drives the load) must
  // not copy a quarter of a megabyte for each chunk it reads.
  const TAIL = 262_144;
  let chunks: string[] = [];
  let kept = 0;
  const tail = (): string => {
    if (chunks.length > 1) chunks = [chunks.join('').slice(-TAIL)];
    kept = chunks[0]?.length ?? 0;
    return chunks[0] ?? '';
  };
  const keep = (d: Buffer) => {
    const s = d.toString('utf8');
    written += s.length;
    chunks.push(s);
    kept += s.length;
    while (chunks.length > 1 && kept - (chunks[0]?.length ?? 0) >= TAIL) kept -= chunks.shift()?.length ?? 0;
    if (waiters.size === 0) return;
    const outText = tail();
    for (const w of waiters) {
      // Only text written after waitFor() was called counts for it.
      const fresh = outText.slice(-Math.min(outText.length, written - w.from));
      if (w.pattern.test(fresh)) {
        waiters.delete(w);
        w.resolve(true);
      }
    }
  };
  child.stdout?.on('data', (d: Buffer) => {
    bytes += d.length;
    for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
    keep(d);
  });
  child.stderr?.on('data', keep);
  child.on('error', (e) => keep(Buffer.from(`\n[spawn error] ${e.message}\n`)));
  const file = opts.stdoutFile;
  return {
    name,
    child,
    pid,
    port,
    out: file === undefined ? tail : () => `${fileTail(file, TAIL)}${tail()}`,
    stdoutBytes: file === undefined ? () => bytes : () => statSync(file).size,
    stdoutLines: file === undefined ? () => lines : () => countLines(file),
    exited: () => child.exitCode !== null || child.signalCode !== null,
    waitFor(pattern, timeoutMs) {
      if (file !== undefined)
        throw new Error(`${name}: waitFor reads a pipe; this process writes its stdout to ${file}`);
      return new Promise((resolve) => {
        const w = { pattern, from: written, resolve };
        waiters.add(w);
        setTimeout(() => {
          if (waiters.delete(w)) resolve(false);
        }, timeoutMs).unref();
      });
    },
  };
}

/** The last `n` bytes of a file, as text. */
function fileTail(file: string, n: number): string {
  const size = statSync(file).size;
  const buf = Buffer.alloc(Math.min(n, size));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, buf.length, size - buf.length);
  } finally {
    closeSync(fd);
  }
  return buf.toString('utf8');
}

/** How many newlines a file holds, read a megabyte at a time. */
function countLines(file: string): number {
  const buf = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  let lines = 0;
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf))
      for (let i = buf.indexOf(10); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
  } finally {
    closeSync(fd);
  }
  return lines;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  body: Buffer;
  ms: number;
}

/** One GET, over a fresh connection unless an agent is given, with the Host (and any other header) given. */
export function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  timeoutMs = 5000,
  agent?: Agent,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(
      { host: '127.0.0.1', port, path, method: 'GET', headers, agent: agent ?? false, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
            ms: performance.now() - t0,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Polls `path` every 10 ms until a 200 answer; returns the time since `since` (ms). */
export async function waitReady(
  p: Started,
  path: string,
  headers: Record<string, string>,
  since: number,
  timeoutMs: number,
): Promise<number> {
  for (;;) {
    if (p.exited()) throw new Error(`exited (code ${p.child.exitCode ?? p.child.signalCode}): ${lastLines(p.out())}`);
    try {
      const a = await get(p.port, path, headers, 2000);
      if (a.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > timeoutMs)
      throw new Error(`no 200 on ${path} within ${Math.round(timeoutMs / 1000)} s: ${lastLines(p.out())}`);
    await sleep(10);
  }
}

/** The end of a process's output, for a one-line reason; an error line, when there is one, first. */
export function lastLines(text: string, n = 4): string {
  const all = text
    .replace(/\x1b\[[0-9;]*m/g, '')
    .trim()
    .split('\n');
  const error = all.find((l) => /\[ERROR\]/.test(l)) ?? all.find((l) => /^\s*(\w*Error\b|error:)/.test(l));
  const tail = all.slice(-n).filter((l) => l !== error);
  return [...(error ? [error.trim()] : []), ...tail].join(' / ').slice(0, 600) || '(no output)';
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The processes of a process group (the started process and everything it started), each with its /proc/PID/stat fields after the command. */
async function groupStats(pgid: number): Promise<{ pid: string; fields: string[] }[]> {
  const pids = await readdir('/proc').catch(() => [] as string[]);
  const stats = await Promise.all(
    pids
      .filter((d) => /^\d+$/.test(d))
      .map(async (pid) => {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
        // Fields after the command (which may hold spaces) start after the last ')'.
        return { pid, fields: stat.slice(stat.lastIndexOf(')') + 2).split(' ') };
      }),
  );
  return stats.filter((s) => Number(s.fields[2]) === pgid);
}

/** RSS (MiB) of a process group: the started process and everything it started. */
export async function groupRssMiB(pgid: number): Promise<number> {
  let kb = 0;
  for (const { pid } of await groupStats(pgid)) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return Math.round((kb / 1024) * 10) / 10;
}

/** CPU time (ms, user + system, every thread) a process group has used so far. */
export async function groupCpuMs(pgid: number): Promise<number> {
  const tick = 1000 / CLOCK_TICKS;
  let ms = 0;
  for (const { fields } of await groupStats(pgid)) ms += (Number(fields[11]) + Number(fields[12])) * tick;
  return ms;
}
/** USER_HZ, the unit of /proc/PID/stat's times: 100 on Linux. */
const CLOCK_TICKS = 100;

let nextPort = 5100 + Math.floor(Math.random() * 2000);
/** A port nothing on this machine listens on right now. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  for (;;) {
    const port = nextPort++;
    const ok = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (ok) return port;
  }
}

/** Runs a command to its end (tracked like the servers); its exit code, output and duration. */
export async function runToEnd(
  name: string,
  cmd: string,
  args: string[],
  opts: SpawnOptions & { timeoutMs?: number } = {},
): Promise<{ code: number | null; out: string; stdout: string; ms: number }> {
  const t0 = performance.now();
  const p = startProcess(name, cmd, args, 0, opts);
  let stdout = '';
  p.child.stdout?.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  const timer = opts.timeoutMs ? setTimeout(() => void stop(p), opts.timeoutMs) : undefined;
  const code = await new Promise<number | null>((resolve) => {
    if (p.exited()) resolve(p.child.exitCode);
    else p.child.once('close', (c) => resolve(c));
  });
  clearTimeout(timer);
  await stop(p);
  return { code, out: p.out(), stdout, ms: performance.now() - t0 };
}

/**
 * CPU placement for the load phase (Linux, `taskset`, two CPUs or more): the load generator (this
 * process, every thread) on CPU 0, each server under load on the others, so that neither takes the
 * other's core and every server runs in the same place. Undefined where that cannot be done (the
 * bench then runs unpinned, and says so).
 */
export function cpuPlacement(): { serverCpus: string; pinSelf(): void; unpinSelf(): void } | undefined {
  const n = availableParallelism();
  if (process.platform !== 'linux' || n < 2) return undefined;
  const taskset = (args: string[]) => execFileSync('taskset', args, { stdio: 'ignore' });
  try {
    taskset(['-p', String(process.pid)]);
  } catch {
    return undefined;
  }
  const all = `0-${n - 1}`;
  return {
    serverCpus: n === 2 ? '1' : `1-${n - 1}`,
    pinSelf: () => taskset(['-a', '-p', '-c', '0', String(process.pid)]),
    unpinSelf: () => taskset(['-a', '-p', '-c', all, String(process.pid)]),
  };
}
