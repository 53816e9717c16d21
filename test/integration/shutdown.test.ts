import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, get, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { createShutdown, type Shutdown, trackConnections } from '../../src/server/shutdown.js';
import { startCli } from '../cli-helpers.js';
import { stateFor, testConfig } from '../helpers.js';

/**
 * "At once", where the grace is 10 s or more: well under the grace (so a shutdown that waits for it
 * fails), with room for a loaded CI machine (where starting the CLI once took 10 s).
 */
const AT_ONCE = 5000;

/** A client that sends a request's headers one line every 200 ms and never finishes them. */
function slowClient(port: number): { socket: Socket; closed: Promise<number> } {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write('GET /api/v1/desk HTTP/1.1\r\nHost: stub.test\r\n');
  const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 200);
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      clearInterval(drip);
      resolve(Date.now());
    }),
  );
  return { socket, closed };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A GET over a keep-alive agent; rejects when the connection is closed before an answer. */
function ask(base: string, path: string, agent: Agent, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get(`${base}${path}`, { agent, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, at: Date.now() }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** An agent whose one kept-alive socket is idle after a first answer; resolves its close time. */
async function idleKeepAlive(base: string): Promise<{ agent: Agent; closed: Promise<number> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  await ask(base, '/api/v1/desk', agent);
  const free = Object.values(agent.freeSockets).flat();
  expect(free).toHaveLength(1);
  const socket = free[0] as Socket;
  return { agent, closed: new Promise((resolve) => socket.once('close', () => resolve(Date.now()))) };
}

describe('shutdown always ends (in process, real sockets)', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    app?.server.closeAllConnections();
    await app?.close();
    app = undefined;
  });

  async function start(graceMs: number): Promise<{
    base: string;
    port: number;
    shutdown: Shutdown;
    exited: Promise<{ code: number; at: number }>;
    said: string[];
  }> {
    const config = testConfig({ maxDelayMs: 60_000 });
    app = await buildApp(config, { current: await stateFor(config) });
    const connections = trackConnections(app.server);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;
    const said: string[] = [];
    let exit: (v: { code: number; at: number }) => void = () => undefined;
    const exited = new Promise<{ code: number; at: number }>((r) => (exit = r));
    const a = app;
    const shutdown = createShutdown({
      graceMs,
      connections,
      close: () => a.close(),
      say: (l) => said.push(l),
      exit: (code) => exit({ code, at: Date.now() }),
    });
    return { base: `http://127.0.0.1:${port}`, port, shutdown, exited, said };
  }

  it('closes idle keep-alive sockets and half-sent requests at once, and exits 0 long before the grace', async () => {
    const s = await start(20_000);
    const idle = await idleKeepAlive(s.base);
    const slow = slowClient(s.port);
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    s.shutdown.signal('SIGTERM');
    const { code, at } = await s.exited;
    expect(code).toBe(0);
    expect(at - t0).toBeLessThan(AT_ONCE);
    expect((await idle.closed) - t0).toBeLessThan(AT_ONCE);
    expect((await slow.closed) - t0).toBeLessThan(AT_ONCE);
    expect(s.said[0]).toMatch(/^SIGTERM: closing/);
    idle.agent.destroy();
  });

  it('answers a request in flight with Connection: close, then exits 0', async () => {
    const s = await start(20_000);
    const agent = new Agent({ keepAlive: true });
    const held = ask(s.base, '/api/v1/desk?format=api', agent, { prefer: 'delay=700' });
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    s.shutdown.signal('SIGTERM');
    expect(s.said[0]).toMatch(/1 request in flight may take up to 20000 ms/);
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body).count).toBeGreaterThan(0);
    const { code, at } = await s.exited;
    expect(code).toBe(0);
    expect(at - t0).toBeGreaterThanOrEqual(400);
    expect(at - t0).toBeLessThan(3000);
    agent.destroy();
  });

  it('refuses new connections once closing', async () => {
    const s = await start(20_000);
    const agent = new Agent({ keepAlive: true });
    const held = ask(s.base, '/api/v1/desk', agent, { prefer: 'delay=800' });
    await new Promise((r) => setTimeout(r, 200));
    s.shutdown.signal('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    await expect(ask(s.base, '/api/v1/desk', new Agent())).rejects.toThrow(/ECONNREFUSED|ECONNRESET|socket hang up/);
    expect((await held).status).toBe(200);
    expect((await s.exited).code).toBe(0);
    agent.destroy();
  });

  it('closes what is left when the grace is over (an answer held longer), and exits 0', async () => {
    const s = await start(600);
    const agent = new Agent({ keepAlive: true });
    const held = ask(s.base, '/api/v1/desk', agent, { prefer: 'delay=30000' });
    const slow = slowClient(s.port);
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    s.shutdown.signal('SIGINT');
    await expect(held).rejects.toThrow(/socket hang up|ECONNRESET/);
    const { code, at } = await s.exited;
    expect(code).toBe(0);
    expect(at - t0).toBeGreaterThanOrEqual(550);
    expect(at - t0).toBeLessThan(2000);
    expect((await slow.closed) - t0).toBeLessThan(500);
    expect(s.said.join('\n')).toMatch(/shutdown grace of 600 ms over: closing 1 connection \(1 request not answered\)/);
    agent.destroy();
  });

  it('a second signal exits at once, says so, with 128 + the signal number', async () => {
    const s = await start(20_000);
    const agent = new Agent({ keepAlive: true });
    const held = ask(s.base, '/api/v1/desk', agent, { prefer: 'delay=30000' }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    s.shutdown.signal('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    s.shutdown.signal('SIGINT');
    const { code, at } = await s.exited;
    expect(code).toBe(130);
    expect(at - t0).toBeLessThan(AT_ONCE);
    expect(s.said[1]).toBe('SIGINT again: exiting at once, 1 request in flight not answered');
    app?.server.closeAllConnections();
    await held;
    agent.destroy();
  });
});

describe('shutdown always ends (the CLI, real signals)', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  async function cli(args: string[] = []) {
    const started = await startCli(['--port', '0', '--quiet', '--max-delay', '60000', ...args]);
    children.push(started.child);
    const port = Number(new URL(started.url).port);
    const exited = once(started.child, 'exit').then(([code, signal]) => ({
      code: code as number | null,
      signal: signal as string | null,
      at: Date.now(),
    }));
    return { ...started, port, exited };
  }

  it('SIGTERM with a slow client, an idle keep-alive client and a request in flight: answers it with Connection: close, exits 0 at once after', async () => {
    const s = await cli();
    const idle = await idleKeepAlive(s.url);
    const slow = slowClient(s.port);
    const agent = new Agent({ keepAlive: true });
    const held = ask(s.url, '/api/v1/desk?format=api', agent, { prefer: 'delay=1000' });
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    s.child.kill('SIGTERM');
    expect((await idle.closed) - t0).toBeLessThan(AT_ONCE);
    expect((await slow.closed) - t0).toBeLessThan(AT_ONCE);
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    const { code, at } = await s.exited;
    expect(code).toBe(0);
    expect(at - t0).toBeLessThan(3000);
    expect(s.output()).toMatch(/SIGTERM: closing: no new connections; 1 request in flight may take up to 10000 ms/);
    idle.agent.destroy();
    agent.destroy();
  });

  // The default grace (10 s) is what the SIGTERM test above reads in the log; waiting it out here
  // would add 10 s to every run.
  it('SIGINT while an answer is held past the grace: exits 0 when the grace is over, never later', async () => {
    const s = await cli(['--shutdown-grace', '2500']);
    const agent = new Agent({ keepAlive: true });
    const held = ask(s.url, '/api/v1/desk', agent, { prefer: 'delay=40000' }).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    s.child.kill('SIGINT');
    const { code, at } = await s.exited;
    expect(code).toBe(0);
    expect(at - t0).toBeGreaterThanOrEqual(2000);
    expect(at - t0).toBeLessThan(6000);
    expect(await held).toBeInstanceOf(Error);
    expect(s.output()).toMatch(/shutdown grace of 2500 ms over/);
    agent.destroy();
  }, 60_000);

  it('a second SIGTERM exits at once and says so', async () => {
    const s = await cli();
    const agent = new Agent({ keepAlive: true });
    const held = ask(s.url, '/api/v1/desk', agent, { prefer: 'delay=40000' }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    s.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    s.child.kill('SIGTERM');
    const { code, at } = await s.exited;
    expect(code).toBe(143);
    expect(at - t0).toBeLessThan(AT_ONCE);
    expect(s.output()).toMatch(/SIGTERM again: exiting at once, 1 request in flight not answered/);
    await held;
    agent.destroy();
  });

  it.each([
    ['--quiet', ['--quiet']],
    ['the request log on', ['--log']],
  ])(
    'a reader of stdout that went away (`| head -1`) costs lines, never a crash: served, then exits 0 on SIGTERM (%s)',
    async (_name, args) => {
      const started = await startCli(['--port', '0', ...(args[0] === '--log' ? [] : args)]);
      children.push(started.child);
      const exited = once(started.child, 'exit');
      let stderr = '';
      started.child.stderr?.on('data', (d) => (stderr += d));
      // The reading end closed, as `head` closes it once it has its line.
      started.child.stdout?.destroy();
      const agent = new Agent({ keepAlive: false });
      for (let i = 0; i < 3; i++) expect((await ask(started.url, '/api/v1/desk', agent)).status).toBe(200);
      agent.destroy();
      started.child.kill('SIGTERM');
      const [code] = await exited;
      expect(stderr).not.toMatch(/EPIPE|Unhandled|Error/);
      expect(code).toBe(0);
    },
  );
});
