import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { startProxy } from '../../src/contract/proxy/proxy-server.js';
import { DOCUMENT_COLLECTIONS, listen, makeApp, SPEC } from '../helpers.js';
import { ROOT } from '../cli-helpers.js';

/** `prism proxy SPEC UPSTREAM --errors`: Stoplight's validator, independent of ours, in front of a server. */
async function prismProxy(upstream: string): Promise<{ child: ChildProcess; url: string }> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const child = spawn(
    `${ROOT}node_modules/.bin/prism`,
    ['proxy', SPEC, upstream, '--errors', '-h', '127.0.0.1', '-p', String(port)],
    { cwd: ROOT },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start: ${log}`)), 45_000);
    const onData = (d: Buffer) => {
      log += d;
      if (/Prism is listening/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () => reject(new Error(`prism exited: ${log}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

describe('a second, independent oracle: prism proxy --errors in front of the stub', () => {
  let app: FastifyInstance;
  let prism: { child: ChildProcess; url: string };
  let broken: Server;
  let brokenPrism: { child: ChildProcess; url: string };
  beforeAll(async () => {
    app = await makeApp({ pageSize: 7 });
    const base = await listen(app);
    // A deployment that breaks the desk's building (Park Place's P answered as Z, a letter the model's
    // choices lack), to see Prism fail it. The first page holds Park Place's desks (ordered by building).
    broken = createServer(async (req, res) => {
      const good = await app.inject({ url: req.url ?? '/', headers: { host: req.headers.host ?? 'x' } });
      res
        .writeHead(good.statusCode, { 'content-type': 'application/json' })
        .end(good.body.replaceAll('"building":"P"', '"building":"Z"'));
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    [prism, brokenPrism] = await Promise.all([
      prismProxy(base),
      prismProxy(`http://127.0.0.1:${(broken.address() as AddressInfo).port}`),
    ]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([prism && stop(prism.child), brokenPrism && stop(brokenPrism.child)]);
    broken?.close();
    await app?.close();
  });

  it.each(DOCUMENT_COLLECTIONS)('/api/v1/%s passes through Prism with no violation', async (resource) => {
    const res = await fetch(`${prism.url}/api/v1/${resource}?format=api`);
    const body = await res.text();
    expect(res.status, body).toBe(200);
    expect(res.headers.get('sl-violations')).toBeNull();
  });

  it('every page of desks and every desk detail pass through Prism', async () => {
    let pages = 0;
    let desks = 0;
    let next: string | null = `${prism.url}/api/v1/desk?format=api`;
    while (next !== null) {
      const res = await fetch(next);
      expect(res.status).toBe(200);
      expect(res.headers.get('sl-violations')).toBeNull();
      const body = (await res.json()) as { count: number; next: string | null; results: { pk: number }[] };
      for (const desk of body.results) {
        const detail = await fetch(`${prism.url}/api/v1/desk/${desk.pk}?format=api`);
        expect(detail.status, await detail.text()).toBe(200);
        expect(detail.headers.get('sl-violations')).toBeNull();
      }
      pages++;
      desks += body.results.length;
      // Prism passes the stub's links on: they name the stub, not Prism.
      next = body.next === null ? null : `${prism.url}${new URL(body.next).pathname}${new URL(body.next).search}`;
      if (next === null) expect(desks).toBe(body.count);
    }
    // The 190 active desks, 7 a page.
    expect(pages).toBe(28);
  });

  it('and Prism does fail a broken deployment (the oracle is not blind)', async () => {
    const res = await fetch(`${brokenPrism.url}/api/v1/desk?format=api`);
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/building/);
  });

  it('our validating proxy agrees with Prism’s, answer by answer', async () => {
    const contract = await loadContract(SPEC);
    const brokenBase = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
    const ours = await startProxy({
      contract,
      upstream: brokenBase,
      host: '127.0.0.1',
      port: 0,
      errors: true,
      timeoutMs: 5000,
      maxBody: 4 * 1024 * 1024,
      log: () => {},
    });
    try {
      const failed = new Set<boolean>();
      for (const path of [
        '/api/v1/desk?format=api',
        '/api/v1/desk?format=api&page=7',
        '/api/v1/desk/3?format=api',
        '/api/v1/employee?format=api',
      ]) {
        const [theirs, mine] = await Promise.all([fetch(`${brokenPrism.url}${path}`), fetch(`${ours.url}${path}`)]);
        const [theirText, myText] = [await theirs.text(), await mine.text()];
        failed.add(theirs.status === 500);
        // Prism answers 500 with its violations, ours 502 with its own: the same answers fail, for the same member.
        expect(mine.status === 502, `${path}: ${myText}`).toBe(theirs.status === 500);
        if (mine.status === 502) {
          const building = (JSON.parse(myText) as { violations: { pointer: string }[] }).violations.filter((v) =>
            v.pointer.endsWith('/building'),
          );
          expect(building.length, path).toBeGreaterThan(0);
          expect(theirText, path).toMatch(/building/);
        }
      }
      // Some answers broken (Park Place's desks), some not: both sides are compared.
      expect(failed).toEqual(new Set([true, false]));
    } finally {
      await ours.stop();
    }
  });
});
