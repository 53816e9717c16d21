import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/** A file the log writes, and what it holds. */
function logFile(): { fd: number; text: () => string; bytes: () => Buffer } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'request-log-')), 'log');
  const fd = openSync(file, 'w');
  return { fd, text: () => readFileSync(file, 'utf8'), bytes: () => readFileSync(file) };
}

/**
 * A pipe (a FIFO) whose two ends are this process's, both non-blocking as a terminal's or a
 * supervisor's pipe usually is: what the log writes waits in the kernel (64 KiB) until `read()`
 * takes it, and a write to a full pipe fails with EAGAIN.
 */
function pipe(): { fd: number; read: () => string; fill: () => number; closeReader: () => void } {
  // Bytes read so far: a character's bytes may come in two reads.
  let got = Buffer.alloc(0);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'request-log-')), 'fifo');
  execFileSync('mkfifo', [file]);
  const reader = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
  const chunk = Buffer.alloc(64 * 1024);
  const tryIo = (io: () => number): number => {
    try {
      return io();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') return 0;
      throw e;
    }
  };
  return {
    fd,
    // Everything read so far, as text.
    read: () => {
      for (let n = tryIo(() => readSync(reader, chunk)); n > 0; n = tryIo(() => readSync(reader, chunk)))
        got = Buffer.concat([got, chunk.subarray(0, n)]);
      return got.toString('utf8');
    },
    // Bytes written until the pipe holds no more.
    fill: () => {
      let filled = 0;
      for (let n = tryIo(() => writeSync(fd, chunk)); n > 0; n = tryIo(() => writeSync(fd, chunk))) filled += n;
      return filled;
    },
    closeReader: () => closeSync(reader),
  };
}

/** Waits until `done()` holds, reading what it needs meanwhile; fails after `ms`. */
async function until(done: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
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
    // Every request is a line, logged or counted: the 400 of the stall, the one answered during
    // it, and those sent until the log resumed (the first of them may meet a full buffer still).
    const tally = () => {
      const counts = [...seen.matchAll(/\((\d+) log lines dropped/g)].map((m) => Number(m[1]));
      const logged = seen.split('\n').filter((l) => / GET \/api\/v1\/desk[/?]\S* 200 [\d.]+ms$/.test(l)).length;
      return { counts, dropped: counts.reduce((a, b) => a + b, 0), logged };
    };
    // The last line may still be on its way.
    const settled = Date.now() + 5_000;
    while (tally().logged + tally().dropped < 400 + 1 + n && Date.now() < settled)
      await new Promise((r) => setTimeout(r, 20));
    const { counts, dropped, logged } = tally();
    // Between what the pipe and the buffer held and what was sent: some dropped, not all.
    expect(dropped).toBeGreaterThan(0);
    expect(counts[0]).toBeLessThan(400);
    expect(logged + dropped).toBe(400 + 1 + n);
    child.kill('SIGTERM');
    await once(child, 'exit');
  }, 60_000);
});

describe('RequestLog', () => {
  it('drops and counts the lines beyond its bound while the reader stalls, and tells their count where they were once it reads again', async () => {
    const p = pipe();
    // The reader stalls: the pipe is full before the first line.
    const filler = p.fill();
    const log = new RequestLog({ fd: p.fd, format: 'pretty', color: false, maxBufferedBytes: 1_000 });
    for (let i = 0; i < 100; i++) log.request({ method: 'GET', url: `/api/v1/desk?i=${i}`, status: 200, ms: 0.1 });
    // About 40 bytes a line: the bound holds some 25, the rest are dropped and counted.
    expect(log.dropped).toBeGreaterThan(60);
    expect(log.dropped).toBeLessThan(80);
    // Still stalled: nothing is lost beyond what was dropped, and nothing more is dropped.
    await new Promise((r) => setTimeout(r, 300));
    const dropped = log.dropped;
    let text = '';
    await until(() => (text = p.read()).includes('log lines dropped'), 'the count of dropped lines');
    log.request({ method: 'GET', url: '/after', status: 404, ms: 0.2 });
    await until(() => (text = p.read()).includes('/after'), 'the line after');
    expect(log.dropped).toBe(dropped);
    const logged = text.slice(filler);
    expect(logged.split('\n').filter((l) => / GET \/api\/v1\/desk\?i=\d+ 200 0\.1ms$/.test(l))).toHaveLength(
      100 - dropped,
    );
    expect(logged).toMatch(
      new RegExp(
        `^(\\S+ GET /api/v1/desk\\?i=\\d+ 200 0\\.1ms\\n)+\\S+ \\(${dropped} log lines dropped: the log's reader did not keep up\\)\\n\\S+ GET /after 404 0\\.2ms\\n$`,
      ),
    );
  });

  it('writes each line whole and in order through a reader that takes a little at a time: non-ASCII, a line longer than the pipe, thousands of lines', async () => {
    const p = pipe();
    const log = new RequestLog({ fd: p.fd, format: 'pretty', color: false, maxBufferedBytes: 1 << 30 });
    const long = `/api/v1/desk?q=${'é€𝄞x'.repeat(30_000)}`;
    const urls = [
      ...Array.from({ length: 5_000 }, (_, i) => `/api/v1/desk?name=é€𝄞&i=${i}`),
      long,
      '/api/v1/desk?last',
    ];
    for (const url of urls) log.request({ method: 'GET', url, status: 200, ms: 0.1 });
    let text = '';
    await until(() => (text = p.read()).endsWith('/api/v1/desk?last 200 0.1ms\n'), 'the last line', 30_000);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => l.replace(/^\d\d:\d\d:\d\d\.\d{3} GET (\S+) 200 0\.1ms$/, '$1'))).toEqual(urls);
    expect(log.dropped).toBe(0);
  });

  it('ends quietly when the reader is gone (EPIPE): nothing thrown, no error left unheard', async () => {
    const p = pipe();
    p.closeReader();
    const log = new RequestLog({ fd: p.fd, format: 'pretty', color: false });
    const unheard: unknown[] = [];
    const hear = (e: unknown) => unheard.push(e);
    process.on('uncaughtException', hear);
    try {
      for (let i = 0; i < 3; i++) log.request({ method: 'GET', url: `/x${i}`, status: 200, ms: 0.1 });
      // Written at the next periodic flush, which meets EPIPE; then more lines, and more flushes.
      await new Promise((r) => setTimeout(r, 300));
      log.request({ method: 'GET', url: '/after', status: 200, ms: 0.1 });
      log.message('still here');
      await new Promise((r) => setTimeout(r, 300));
      await log.drain(200);
    } finally {
      process.off('uncaughtException', hear);
    }
    expect(unheard).toEqual([]);
  });

  it('starts each pretty line with the local time it was written, HH:MM:ss.mmm, whatever the instant', async () => {
    const out = logFile();
    const log = new RequestLog({ fd: out.fd, format: 'pretty', color: false });
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
    await log.drain(1000);
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toEqual(instants.map((t) => `${reference(t)} GET /t${t} 200 0.1ms`));
  });

  it('writes every request line as its text reads: controls escaped, any method, status and time', async () => {
    const out = logFile();
    const log = new RequestLog({ fd: out.fd, format: 'pretty', color: false, maxBufferedBytes: 1 << 30 });
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
    await log.drain(1000);
    const d = new Date(at);
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const time = `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.007`;
    const shown = (url: string) =>
      url.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
    const want = asked.map((r) => `${time} ${r.method} ${shown(r.url)} ${r.status} ${r.ms}ms\n`).join('');
    expect(out.text()).toBe(Buffer.from(want, 'utf8').toString('utf8'));
    expect(out.bytes().equals(Buffer.from(want, 'utf8'))).toBe(true);
  });
});
