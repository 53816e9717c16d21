import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type ProxyFlags, proxy } from '../../../src/cli/proxy.js';
import { DEFAULTS } from '../../../src/server/config.js';
import { catchOutput, io } from './io.js';

// Each spec loaded once for the file's tests (the command loads it on every run).
vi.mock('../../../src/contract/load.js', async (real) => (await import('../contract/load-once.js')).loadedOnce(real));

// `proxy` listens (loopback, port 0) until SIGINT or SIGTERM, emitted here on the process.
const dir = await mkdtemp(path.join(tmpdir(), 'cli-proxy-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
catchOutput();
const flags = (over: Partial<ProxyFlags> = {}): ProxyFlags => ({
  baseUrl: 'http://127.0.0.1:9',
  port: 0,
  host: '127.0.0.1',
  spec: DEFAULTS.specFile,
  errors: false,
  timeout: 1000,
  maxBody: 2 ** 20,
  ...over,
});

describe('workplace-stub proxy', () => {
  it.each<['SIGINT' | 'SIGTERM', boolean]>([
    ['SIGINT', false],
    ['SIGTERM', true],
  ])('listens until %s, then prints the session (and writes --junit); exit 0', async (signal, errors) => {
    const junit = path.join(dir, `${signal}.xml`);
    const done = proxy(flags({ junit, errors }));
    await vi.waitFor(() => expect(io.out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\n$/), { timeout: 5000 });
    expect(io.out).toContain(
      `Validating proxy of http://127.0.0.1:9${errors ? ' (--errors: broken answers become 502)' : ''} listening on`,
    );
    process.emit(signal, signal);
    expect(await done).toBe(0);
    expect(io.out).toContain(
      'Proxy of http://127.0.0.1:9: 0 requests, 0 answers validated, 0 without an answer; 0 violations\n',
    );
    expect(await readFile(junit, 'utf8')).toContain('<testsuites name="proxy http://127.0.0.1:9" tests="0"');
  });

  it('2: a port it cannot listen on', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const { port } = taken.address() as AddressInfo;
    try {
      expect(await proxy(flags({ port }))).toBe(2);
      expect(io.err).toMatch(new RegExp(`^error: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
    } finally {
      await new Promise<void>((r) => taken.close(() => r()));
    }
  });

  it.each<[string, Partial<ProxyFlags>, RegExp]>([
    ['--junit names a folder', { junit: dir }, /^error: --junit: .* is a folder\n$/],
    ['the spec cannot be loaded', { spec: path.join(dir, 'missing.yaml') }, /missing\.yaml/],
  ])('2: %s', async (_name, over, err) => {
    expect(await proxy(flags(over))).toBe(2);
    expect(io.err).toMatch(err);
    expect(io.out).toBe('');
  });
});
