import { once } from 'node:events';
import http from 'node:http';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestLog } from '../../src/server/log.js';
import { startCli } from '../cli-helpers.js';

/**
 * Issue #14 §2: the request log never blocks the event loop. A reader of stdout that stalls (a
 * pipe nobody drains) costs log lines, bounded and counted, never answers; once it reads again,
 * the count is told and lines flow again.
 */

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function get(url: string, ms = 5_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { host: 'stub.local' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(ms, () => req.destroy(new Error(`no answer in ${ms} ms: ${url.slice(0, 80)}`)));
    req.on('error', reject);
  });
}

/** A sink that keeps every chunk at once. */
function memorySink() {
  const chunks: Buffer[] = [];
  const sink = {
    writableLength: 0,
    write(chunk: Uint8Array, cb: (err?: Error | null) => void) {
      chunks.push(Buffer.from(chunk));
      cb();
      return true;
    },
  };
  return { chunks, sink };
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

describe('a stalled reader of the request log', () => {
  it('costs log lines, counted, never answers; the log resumes with the count once read again', async () => {
    const { child, url } = await startCli(['serve', '--port', '0', '--allowed-hosts', 'stub.local']);
    stop = () => child.kill('SIGKILL');
    const stdout = child.stdout;
    if (!stdout) throw new Error('no stdout');
    // Nobody reads stdout from here on: the pipe (64 KiB) fills, then the stub's own buffer (1 MiB).
    stdout.pause();
    let seen = '';
    // Lines of about 6 KiB: 400 requests log 2.4 MiB, twice what pipe and buffer hold together.
    const padding = 'x'.repeat(6_000);
    for (let round = 0; round < 8; round++) {
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, i) => get(`${url}/api/v1/desk?format=api&pad=${padding}&n=${round * 50 + i}`)),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    // Still answering at once while the reader stalls.
    expect(await get(`${url}/api/v1/desk/1?format=api`, 1_000)).toBe(200);

    stdout.on('data', (d: Buffer) => {
      seen += d.toString('utf8');
    });
    stdout.resume();
    // Writing resumes: the count of dropped lines is told, and the next requests are logged again.
    const deadline = Date.now() + 10_000;
    let n = 0;
    while (!/log lines dropped/.test(seen) || !seen.includes('after-the-stall')) {
      if (Date.now() > deadline) throw new Error(`the log did not resume: ${seen.slice(-500)}`);
      await get(`${url}/api/v1/desk?format=api&after-the-stall=${n++}`);
      await new Promise((r) => setTimeout(r, 60));
    }
    const dropped = Number(/\((\d+) log lines dropped/.exec(seen)?.[1]);
    // Between what the pipe and the buffer held and what was sent: some dropped, not all.
    expect(dropped).toBeGreaterThan(0);
    expect(dropped).toBeLessThan(400);
    const logged = seen.split('\n').filter((l) => / GET \/api\/v1\/desk\?format=api&pad=/.test(l)).length;
    expect(logged + dropped).toBe(400);
    child.kill('SIGTERM');
    await once(child, 'exit');
  }, 60_000);
});

describe('RequestLog', () => {
  it('drops and counts lines beyond its bound while the sink holds its bytes, and tells their count where they were dropped once it drains', async () => {
    const written: string[] = [];
    let held = 0;
    const pending: (() => void)[] = [];
    const sink = {
      get writableLength() {
        return held;
      },
      write(chunk: Uint8Array, cb: (err?: Error | null) => void) {
        held += chunk.length;
        pending.push(() => {
          held -= chunk.length;
          written.push(Buffer.from(chunk).toString('utf8'));
          cb();
        });
        return false;
      },
    };
    const log = new RequestLog({ sink, format: 'pretty', color: false, maxBufferedBytes: 1_000 });
    for (let i = 0; i < 100; i++) log.request({ method: 'GET', url: `/api/v1/desk?i=${i}`, status: 200, ms: 0.1 });
    // About 40 bytes a line: the bound holds some 25, the rest are dropped and counted.
    expect(log.dropped).toBeGreaterThan(60);
    expect(log.dropped).toBeLessThan(80);
    void log.drain(50);
    await new Promise((r) => setTimeout(r, 10));
    for (const p of pending.splice(0)) p();
    log.request({ method: 'GET', url: '/after', status: 404, ms: 0.2 });
    void log.drain(50);
    await new Promise((r) => setTimeout(r, 10));
    for (const p of pending.splice(0)) p();
    const text = written.join('');
    const lines = text.trimEnd().split('\n');
    expect(lines.filter((l) => l.includes(' GET /api/v1/desk?i=')).length).toBe(100 - log.dropped);
    expect(text).toMatch(
      new RegExp(
        `\\(${log.dropped} log lines dropped: the log's reader did not keep up\\)\\n.* GET /after 404 0\\.2ms\\n$`,
      ),
    );
  });

  it('writes each line whole, in order: non-ASCII, a line longer than a batch, thousands of lines', async () => {
    const { chunks, sink } = memorySink();
    const log = new RequestLog({ sink, format: 'pretty', color: false, maxBufferedBytes: 1 << 30 });
    const long = `/api/v1/desk?q=${'é€𝄞x'.repeat(30_000)}`;
    const urls = [
      ...Array.from({ length: 5_000 }, (_, i) => `/api/v1/desk?name=é€𝄞&i=${i}`),
      long,
      '/api/v1/desk?last',
    ];
    for (const url of urls) log.request({ method: 'GET', url, status: 200, ms: 0.1 });
    await log.drain(100);
    expect(chunks.length).toBeGreaterThan(1);
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => l.replace(/^\S+ GET (\S+) 200 0\.1ms$/, '$1'))).toEqual(urls);
  });

  it('starts each pretty line with the local time it was written, HH:MM:ss.mmm, whatever the instant', async () => {
    const { chunks, sink } = memorySink();
    const log = new RequestLog({ sink, format: 'pretty', color: false });
    const base = Date.UTC(2026, 2, 29, 0, 59, 58);
    // Milliseconds of one, two and three digits; seconds, minutes, hours and days crossed; the clock set back.
    const instants = [
      0,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      1999,
      2000,
      62_345,
      3_600_000 + 7,
      86_400_000 + 123,
      5,
      5,
      999,
    ].map((d) => base + d);
    const reference = (t: number) => {
      const d = new Date(t);
      const p = (n: number, w = 2) => String(n).padStart(w, '0');
      return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const t of instants) {
        vi.setSystemTime(t);
        log.request({ method: 'GET', url: `/t${t}`, status: 200, ms: 0.1 });
      }
    } finally {
      vi.useRealTimers();
    }
    await log.drain(100);
    const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
    expect(lines).toEqual(instants.map((t) => `${reference(t)} GET /t${t} 200 0.1ms`));
  });

  it('writes every request line as its text reads, whichever way it is written (printable ASCII byte by byte, anything else as text)', async () => {
    const { chunks, sink } = memorySink();
    const log = new RequestLog({ sink, format: 'pretty', color: false, maxBufferedBytes: 1 << 30 });
    // Printable ASCII, a space, control characters (escaped), DEL, C1 controls, non-ASCII, a lone surrogate.
    const alphabet = fc.constantFrom(
      ...'abz/?=&%+~ 09',
      '\x00',
      '\x1f',
      '\x7f',
      '\x85',
      '\x9f',
      'é',
      '€',
      '𝄞',
      '\ud800',
    );
    const line = fc.record({
      method: fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'PROPFIND', 'GÉT'),
      url: fc.array(alphabet, { maxLength: 40 }).map((cs) => `/${cs.join('')}`),
      status: fc.constantFrom(200, 301, 404, 405, 500, 99, 1000),
      // Tenths as the server rounds them, powers of ten, and values that are no whole tenth.
      ms: fc.oneof(
        fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 10),
        fc.constantFrom(0, 1, 10, 100, 1000, 1e6, 0.30000000000000004, 897436.2000000001, 1e21, -1),
        fc.double(),
      ),
    });
    const asked = fc.sample(line, { numRuns: 3_000, seed: 14 });
    // Long enough that a line also meets a batch's end.
    asked.push({ method: 'GET', url: `/${'a'.repeat(20_000)}`, status: 200, ms: 0.1 });
    const at = Date.UTC(2026, 10, 25, 12, 0, 0, 7);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(at);
      for (const r of asked) log.request(r);
    } finally {
      vi.useRealTimers();
    }
    await log.drain(100);
    const d = new Date(at);
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const time = `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.007`;
    const shown = (url: string) =>
      url.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
    const want = asked.map((r) => `${time} ${r.method} ${shown(r.url)} ${r.status} ${r.ms}ms\n`).join('');
    expect(Buffer.concat(chunks).toString('utf8')).toBe(Buffer.from(want, 'utf8').toString('utf8'));
    expect(Buffer.concat(chunks).equals(Buffer.from(want, 'utf8'))).toBe(true);
  });
});
