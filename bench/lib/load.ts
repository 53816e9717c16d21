// Load with autocannon, latencies taken from its per-response event at microsecond resolution
// (its own histogram rounds to whole milliseconds, which reads 0 for a fast server).
import { spawn, spawnSync } from 'node:child_process';
import autocannon from 'autocannon';

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  errors: number;
  non2xx: number;
  /** The server's CPU time per answer (µs), when `serverCpuMs` was given. */
  cpuPerAnswerUs?: number;
  /** The load generator's (this process's) CPU use during the load, in % of one core. */
  loadgenCpuPercent: number;
}

export interface LoadOptions {
  port: number;
  path: string;
  host: string;
  seconds: number;
  connections: number;
  /** Each request adds `&n=<i>` (or `?n=<i>`), so that no answer can come from a cache. */
  unique?: boolean;
  /** The server's CPU time used so far (ms): read before and after the load. */
  serverCpuMs?: () => Promise<number>;
}

/**
 * One load, with what it cost: the server's CPU time per answer, a measure that does not depend on
 * how fast the load generator is (on a machine of two cores, its one core is often the limit of
 * the fastest servers: their req/s then tell the generator's speed, and the noise of its core).
 */
export async function load(o: LoadOptions): Promise<Load> {
  const serverBefore = await o.serverCpuMs?.();
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  const l = await autocannonLoad(o);
  const elapsedMs = performance.now() - t0;
  const used = process.cpuUsage(cpuBefore);
  const serverAfter = serverBefore === undefined ? undefined : await o.serverCpuMs?.();
  return {
    ...l,
    ...(serverBefore !== undefined && serverAfter !== undefined && l.requests > 0
      ? { cpuPerAnswerUs: round2(((serverAfter - serverBefore) * 1000) / l.requests) }
      : {}),
    loadgenCpuPercent: Math.round(((used.user + used.system) / 1000 / elapsedMs) * 100),
  };
}

function autocannonLoad(o: LoadOptions): Promise<Omit<Load, 'loadgenCpuPercent'>> {
  let n = 0;
  const sep = o.path.includes('?') ? '&' : '?';
  const requests: autocannon.Request[] | undefined = o.unique
    ? [{ setupRequest: (req) => ({ ...req, path: `${o.path}${sep}n=${n++}` }) }]
    : undefined;
  let lat = new Float64Array(1 << 16);
  let count = 0;
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url: `http://127.0.0.1:${o.port}${o.path}`,
        headers: { host: o.host },
        connections: o.connections,
        duration: o.seconds,
        ...(requests ? { requests } : {}),
      },
      (err, r) => {
        if (err) return reject(err);
        const s = lat.subarray(0, count).sort();
        const q = (p: number) => (count ? round2(s[Math.min(count - 1, Math.floor(p * count))] ?? 0) : 0);
        resolve({
          rps: Math.round(r.requests.average),
          p50: q(0.5),
          p99: q(0.99),
          max: count ? round2(s[count - 1] ?? 0) : 0,
          requests: r.requests.total,
          errors: r.errors + r.timeouts,
          non2xx: r.non2xx,
        });
      },
    );
    inst.on('response', (_client, status, _bytes, ms) => {
      if (status < 200 || status > 299) return;
      if (count === lat.length) {
        const bigger = new Float64Array(lat.length * 2);
        bigger.set(lat);
        lat = bigger;
      }
      lat[count++] = ms;
    });
  });
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Medians of several rounds, errors added up. */
export function summarize(runs: Load[]): Load & { rounds: number } {
  return {
    rps: Math.round(median(runs.map((r) => r.rps))),
    p50: round2(median(runs.map((r) => r.p50))),
    p99: round2(median(runs.map((r) => r.p99))),
    max: round2(Math.max(0, ...runs.map((r) => r.max))),
    requests: runs.reduce((a, r) => a + r.requests, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
    ...(runs.every((r) => r.cpuPerAnswerUs !== undefined)
      ? { cpuPerAnswerUs: round2(median(runs.map((r) => r.cpuPerAnswerUs ?? 0))) }
      : {}),
    loadgenCpuPercent: Math.round(median(runs.map((r) => r.loadgenCpuPercent))),
    rounds: runs.length,
  };
}

/** wrk's path and version where it is installed (Debian: `apt-get install wrk`), else undefined. */
export function wrkVersion(): string | undefined {
  try {
    const r = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
    const m = /wrk (\S+)/.exec(`${r.stdout}${r.stderr}`);
    return m ? m[1] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One load with wrk (C, one thread, on CPU 0 where `pinned`): a generator that costs a fraction
 * of autocannon's per request, so that the fastest servers, not the generator, are the limit.
 * Latencies from its own histogram (`--latency`), whose p50 and p99 it prints.
 */
export async function wrkLoad(o: LoadOptions & { pinned: boolean }): Promise<Load> {
  const serverBefore = await o.serverCpuMs?.();
  const args = [
    '-t1',
    `-c${o.connections}`,
    `-d${o.seconds}s`,
    '--latency',
    '-H',
    `Host: ${o.host}`,
    `http://127.0.0.1:${o.port}${o.path}`,
  ];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(o.pinned ? 'taskset' : 'wrk', o.pinned ? ['-c', '0', 'wrk', ...args] : args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (text += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text.slice(-300)}`)),
    );
  });
  const serverAfter = serverBefore === undefined ? undefined : await o.serverCpuMs?.();
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  if (!Number.isFinite(requests) || !Number.isFinite(rps))
    throw new Error(`wrk printed no figures: ${out.slice(-300)}`);
  const ms = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
    if (!m) return Number.NaN;
    const v = Number(m[1]);
    return round2(m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v);
  };
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    rps: Math.round(rps),
    p50: ms('50'),
    p99: ms('99'),
    max: Number.NaN,
    requests,
    errors: socketErrors ? socketErrors.slice(1).reduce((a, n) => a + Number(n), 0) : 0,
    non2xx,
    ...(serverBefore !== undefined && serverAfter !== undefined && requests > 0
      ? { cpuPerAnswerUs: round2(((serverAfter - serverBefore) * 1000) / requests) }
      : {}),
    // wrk is a process of its own: its CPU is not this one's.
    loadgenCpuPercent: Number.NaN,
  };
}
