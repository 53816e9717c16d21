import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Connections,
  createShutdown,
  type ShutdownOptions,
  trackConnections,
} from '../../../src/server/shutdown.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A shutdown over connections that only note what was asked of them. */
function shutdown(over: Partial<ShutdownOptions> & { inFlight?: number } = {}) {
  const events: string[] = [];
  const connections: Connections = {
    inFlight: over.inFlight ?? 0,
    open: 3,
    startClosing: () => events.push('startClosing'),
    destroyAll: () => events.push('destroyAll'),
  };
  let closed: () => void = () => undefined;
  const s = createShutdown({
    graceMs: 1000,
    connections,
    close: () => (events.push('close'), new Promise<void>((r) => (closed = r))),
    stopOthers: () => events.push('stopOthers'),
    flush: async () => void events.push('flush'),
    say: (line) => events.push(`say ${line}`),
    exit: (code) => events.push(`exit ${code}`),
    ...over,
  });
  return { s, events, close: () => closed() };
}

describe('createShutdown: SIGTERM and SIGINT', () => {
  it('the first signal stops accepting, closes, and exits 0 once the server has closed', async () => {
    const { s, events, close } = shutdown({ inFlight: 2 });
    expect(s.closing).toBe(false);
    s.signal('SIGTERM');
    expect(s.closing).toBe(true);
    expect(events).toEqual([
      'say SIGTERM: closing: no new connections; 2 requests in flight may take up to 1000 ms (send SIGTERM again to exit at once)',
      'stopOthers',
      'close',
      'startClosing',
    ]);
    close();
    await vi.waitFor(() => expect(events.at(-1)).toBe('exit 0'));
    expect(events.slice(4)).toEqual(['flush', 'exit 0']);
  });

  it('a second signal exits at once with 128 + its number', () => {
    const { s, events } = shutdown({ inFlight: 1 });
    s.signal('SIGINT');
    s.signal('SIGINT');
    expect(events.slice(-2)).toEqual([
      'say SIGINT again: exiting at once, 1 request in flight not answered',
      'exit 130',
    ]);
    s.signal('SIGTERM');
    expect(events.filter((e) => e.startsWith('exit'))).toEqual(['exit 130']);
  });

  it('the grace over: what is left is closed, exit 0', async () => {
    vi.useFakeTimers();
    const { s, events } = shutdown();
    s.signal('SIGTERM');
    expect(events[0]).toMatch(/no request in flight/);
    await vi.advanceTimersByTimeAsync(1000);
    expect(events.slice(4)).toEqual([
      'say shutdown grace of 1000 ms over: closing 3 connections (0 requests not answered)',
      'destroyAll',
      'exit 0',
    ]);
  });

  it('an error while closing is said; every connection closed; exit 0', async () => {
    const { s, events } = shutdown({ close: () => Promise.reject(new Error('boom')) });
    s.signal('SIGTERM');
    await vi.waitFor(() => expect(events.at(-1)).toBe('exit 0'));
    expect(events).toContain('say error while closing: boom');
    expect(events).toContain('destroyAll');
  });

  it('last words get what is left of the grace, never more', async () => {
    vi.useFakeTimers();
    const { s, events, close } = shutdown({ flush: () => new Promise<void>(() => undefined) });
    s.signal('SIGTERM');
    await vi.advanceTimersByTimeAsync(400);
    close();
    await vi.advanceTimersByTimeAsync(599);
    expect(events).not.toContain('exit 0');
    await vi.advanceTimersByTimeAsync(1);
    expect(events.filter((e) => e === 'exit 0')).toHaveLength(1);
  });
});

describe('trackConnections: sockets and the answers in flight on them', () => {
  it('counts them; closing destroys idle sockets, tells answers in flight to close, refuses new ones', async () => {
    let pending: http.ServerResponse | undefined;
    const server = http.createServer((req, res) => {
      if (req.url === '/slow') pending = res;
      else if (req.url === '/body') req.resume().on('end', () => res.end('read'));
      else res.end('ok');
    });
    const conns = trackConnections(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const open = () =>
      new Promise<Socket>((r) => {
        const s = connect(port, '127.0.0.1', () => r(s));
      });
    try {
      const idle = await open();
      const afterOne = await open();
      afterOne.resume().write('GET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
      const halfHead = await open();
      halfHead.write('GET /fast HTTP/1.1\r\nHo');
      const busy = await open();
      busy.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
      const reading = await open();
      reading.write('POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab');
      await vi.waitFor(() => expect([conns.open, conns.inFlight]).toEqual([5, 2]));
      conns.startClosing();
      // The idle socket, the one between requests and the one whose head is still coming: closed at once.
      await vi.waitFor(() => expect([conns.open, conns.inFlight]).toEqual([2, 2]));
      await vi.waitFor(() =>
        expect([idle, afterOne, halfHead, busy, reading].map((s) => s.readableEnded || s.destroyed)).toEqual([
          true,
          true,
          true,
          false,
          false,
        ]),
      );
      let read = '';
      reading.on('data', (d: Buffer) => (read += d.toString()));
      reading.write('cd');
      await vi.waitFor(() => expect(read).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nread$/));
      expect(read.toLowerCase()).toContain('connection: close');
      let answer = '';
      busy.on('data', (d: Buffer) => (answer += d.toString()));
      pending?.end('done');
      await vi.waitFor(() => expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/));
      expect(answer.toLowerCase()).toContain('connection: close');
      await vi.waitFor(() => expect([conns.open, conns.inFlight]).toEqual([0, 0]));
      const late = await open().catch(() => undefined);
      await vi.waitFor(() => expect(late?.destroyed || late?.readableEnded).toBe(true));
      conns.destroyAll();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
