// Load with autocannon, latencies taken from its per-response event at microsecond resolution
// (its own histogram rounds to whole milliseconds, which reads 0 for a fast server).
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
    ...(serverBefore !== undefined && serverAfter !== undefined && l.requests > 0 ? { cpuPerAnswerUs: round2(((serverAfter - serverBefore) * 1000) / l.requests) } : {}),
    loadgenCpuPercent: Math.round(((used.user + used.system) / 1000 / elapsedMs) * 100),
  };
}

function autocannonLoad(o: LoadOptions): Promise<Omit<Load, 'loadgenCpuPercent'>> {
  let n = 0;
  const sep = o.path.includes('?') ? '&' : '?';
  const requests: autocannon.Request[] | undefined = o.unique ? [{ setupRequest: (req) => ({ ...req, path: `${o.path}${sep}n=${n++}` }) }] : undefined;
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
    ...(runs.every((r) => r.cpuPerAnswerUs !== undefined) ? { cpuPerAnswerUs: round2(median(runs.map((r) => r.cpuPerAnswerUs ?? 0))) } : {}),
    loadgenCpuPercent: Math.round(median(runs.map((r) => r.loadgenCpuPercent))),
    rounds: runs.length,
  };
}
