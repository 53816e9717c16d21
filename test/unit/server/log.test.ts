import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type LogFormat, RequestLog } from '../../../src/server/log.js';

const dir = await mkdtemp(path.join(tmpdir(), 'request-log-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** What a log of `format` wrote into a file, once drained. */
async function written(format: LogFormat, write: (log: RequestLog) => void): Promise<string[]> {
  const file = path.join(dir, `${format}-${Math.random()}.log`);
  const fd = openSync(file, 'w');
  try {
    const log = new RequestLog({ format, fd, color: false });
    write(log);
    await log.drain();
    expect(log.dropped).toBe(0);
    return readFileSync(file, 'utf8').split('\n').slice(0, -1);
  } finally {
    closeSync(fd);
  }
}

const CLOCK = '\\d{2}:\\d{2}:\\d{2}\\.\\d{3}';

describe('RequestLog: one line per request, over sonic-boom', () => {
  it.each<[string, { method: string; url: string; status: number; ms: number }, RegExp]>([
    [
      'a request',
      { method: 'GET', url: '/api/v1/desk?page=2', status: 200, ms: 0.4 },
      new RegExp(`^${CLOCK} GET /api/v1/desk\\?page=2 200 0.4ms$`),
    ],
    [
      'whole milliseconds',
      { method: 'DELETE', url: '/api/v1/desk/7', status: 204, ms: 12 },
      / DELETE \/api\/v1\/desk\/7 204 12ms$/,
    ],
    ['a long request', { method: 'GET', url: '/', status: 200, ms: 123456.7 }, / GET \/ 200 123456\.7ms$/],
    [
      'milliseconds off the tenth, as given',
      { method: 'GET', url: '/', status: 200, ms: 0.45 },
      / GET \/ 200 0\.45ms$/,
    ],
    [
      'a url beyond ASCII, as UTF-8',
      { method: 'GET', url: '/caf\u00e9', status: 404, ms: 0.1 },
      / GET \/café 404 0\.1ms$/,
    ],
    ['DEL escaped', { method: 'GET', url: '/a\u007f', status: 404, ms: 0 }, / GET \/a\\x7f 404 0ms$/],
    [
      'control characters of a url escaped',
      { method: 'GET', url: '/a\u001b[2J\n\u0085', status: 404, ms: 1 },
      new RegExp(`^${CLOCK} GET /a\\\\x1b\\[2J\\\\x0a\\\\x85 404 1ms$`),
    ],
  ])('pretty: %s', async (_name, line, want) => {
    expect(await written('pretty', (log) => log.request(line))).toEqual([expect.stringMatching(want)]);
  });

  it('json: one object a line, url as sent', async () => {
    const [line] = await written('json', (log) => log.request({ method: 'POST', url: '/a"\n', status: 201, ms: 2.5 }));
    expect(JSON.parse(line ?? '')).toEqual({
      level: 30,
      time: expect.any(Number),
      msg: 'request',
      method: 'POST',
      url: '/a"\n',
      status: 201,
      ms: 2.5,
    });
  });

  it('messages go through the same writer, in order: a line each (pretty), one object (json)', async () => {
    expect(
      await written('pretty', (log) => {
        log.request({ method: 'GET', url: '/', status: 200, ms: 1 });
        log.message('reloaded\n  1 change');
      }),
    ).toEqual([expect.stringMatching(new RegExp(`^${CLOCK} GET / 200 1ms$`)), 'reloaded', '  1 change']);
    const [line] = await written('json', (log) => log.message('reloaded\n  1 change'));
    expect(JSON.parse(line ?? '')).toEqual({ level: 30, time: expect.any(Number), msg: 'reloaded\n  1 change' });
  });

  it('lines wait for the next flush; drain hands them over', async () => {
    const lines = await written('pretty', (log) => {
      for (let i = 0; i < 1000; i++) log.request({ method: 'GET', url: `/${i}`, status: 200, ms: 0 });
    });
    expect(lines).toHaveLength(1000);
    expect(lines[999]).toMatch(/ GET \/999 200 0ms$/);
  });

  it('lines across many chunks arrive whole and in order', async () => {
    const url = `/api/v1/desk?search=${'x'.repeat(200)}`;
    const lines = await written('pretty', (log) => {
      for (let i = 0; i < 2000; i++) log.request({ method: 'GET', url: `${url}&n=${i}`, status: 200, ms: i / 10 });
    });
    expect(lines).toHaveLength(2000);
    lines.forEach((line, i) =>
      expect(line).toMatch(new RegExp(`^${CLOCK} GET /api/v1/desk\\?search=x{200}&n=${i} 200 ${i / 10}ms$`)),
    );
  });

  it('a line told its time shows it, as local time (pretty) and as given (json)', async () => {
    const time = new Date(2026, 10, 27, 9, 8, 7, 6).getTime();
    const line = { method: 'GET', url: '/', status: 200, ms: 1, time };
    expect(await written('pretty', (log) => log.request(line))).toEqual(['09:08:07.006 GET / 200 1ms']);
    const [json] = await written('json', (log) => log.request(line));
    expect(JSON.parse(json ?? '').time).toBe(time);
  });

  it('fills again the chunks sonic-boom has written: two kept, whatever the rounds', async () => {
    const made = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const file = path.join(dir, `rounds-${Math.random()}.log`);
    const fd = openSync(file, 'w');
    try {
      const log = new RequestLog({ format: 'pretty', fd, color: false });
      const url = `/api/v1/desk?search=${'x'.repeat(200)}`;
      // Each round crosses a chunk's end, then waits for the writes.
      for (let round = 0; round < 10; round++) {
        for (let i = 0; i < 400; i++) log.request({ method: 'GET', url: `${url}&n=${round}-${i}`, status: 200, ms: 0 });
        await log.drain();
      }
      expect(made.mock.calls.filter(([size]) => size === 64 * 1024).length).toBeLessThanOrEqual(3);
      const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
      expect(lines).toHaveLength(4000);
      lines.forEach((line, i) =>
        expect(line).toMatch(
          new RegExp(`^${CLOCK} GET /api/v1/desk\\?search=x{200}&n=${Math.floor(i / 400)}-${i % 400} 200 0ms$`),
        ),
      );
    } finally {
      made.mockRestore();
      closeSync(fd);
    }
  });

  it('a line reaches the descriptor by itself within a moment (no drain, no more lines)', async () => {
    const file = path.join(dir, `alone-${Math.random()}.log`);
    const fd = openSync(file, 'w');
    try {
      const log = new RequestLog({ format: 'pretty', fd, color: false });
      log.request({ method: 'GET', url: '/alone', status: 200, ms: 1 });
      expect(readFileSync(file, 'utf8')).toBe('');
      const deadline = Date.now() + 2_000;
      while (readFileSync(file, 'utf8') === '' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(readFileSync(file, 'utf8')).toMatch(/ GET \/alone 200 1ms\n$/);
    } finally {
      closeSync(fd);
    }
  });
});
