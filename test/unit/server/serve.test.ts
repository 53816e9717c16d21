import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StubConfig } from '../../../src/server/config.js';
import { largeSpec, serve } from '../../../src/server/serve.js';
import type { StubState } from '../../../src/load/state.js';
import { testConfig } from '../../helpers.js';
import { fixtureDir } from './state-fixtures.js';

// serve() is the one function that listens: on loopback, port 0, closed after each case.
const dir = await mkdtemp(path.join(tmpdir(), 'serve-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const mini = (over: Partial<StubConfig> = {}) =>
  testConfig({
    specFile: path.join(fixtureDir('mini'), 'openapi.yaml'),
    fixturesDir: path.join(fixtureDir('mini'), 'fixtures'),
    port: 0,
    ...over,
  });

let out: string[];
let err: string[];
let listeners: Record<'SIGINT' | 'SIGTERM', NodeJS.SignalsListener[]>;
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  listeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
});
afterEach(() => {
  vi.restoreAllMocks();
  // serve() stays for the process's life: the handlers it added go with the case.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    for (const l of process.listeners(signal)) if (!listeners[signal].includes(l)) process.off(signal, l as () => void);
});

describe('serve: load, build, listen', () => {
  it('serves the spec and says where, what and from where', async () => {
    const started = await serve(mini());
    if (typeof started === 'number') throw new Error(`exit ${started}: ${err.join('')}`);
    try {
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const text = out.join('');
      expect(text).toContain(`Workplace Administration Service stub listening on ${started.url}\n`);
      expect(text).toMatch(new RegExp(`  4 collections under ${started.url}/api/v1/, ready in \\d+ ms\\n`));
      expect(text).toContain(
        `control page (operations, switches, requests): ${started.url}/__stub/ · API reference: ${started.url}/docs`,
      );
      expect(text).toMatch(/\/api\/v1\/stored +fixture /);
      const r = await fetch(`${started.url}/api/v1/stored`);
      expect([r.status, ((await r.json()) as { count: number }).count]).toEqual([200, 3]);
      expect(process.listeners('SIGINT').length).toBe(listeners.SIGINT.length + 1);
      expect(process.listeners('SIGTERM').length).toBe(listeners.SIGTERM.length + 1);
    } finally {
      await started.app.close();
    }
  });

  it('exit 2 when --spec or --fixtures names nothing to read: every problem said', async () => {
    const code = await serve(mini({ specFile: path.join(dir, 'nope.yaml'), fixturesDir: path.join(dir, 'nope') }));
    expect(code).toBe(2);
    expect(err.join('')).toBe(
      `error: --spec ${dir}/nope.yaml: no such file\nerror: --fixtures ${dir}/nope: no such folder\n`,
    );
  });

  it('exit 1 when what they name cannot be served', async () => {
    const spec = path.join(dir, 'broken.yaml');
    await writeFile(spec, 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /api/v1/x: {get: [}\n');
    await mkdir(path.join(dir, 'fixtures'), { recursive: true });
    expect(await serve(mini({ specFile: spec, fixturesDir: path.join(dir, 'fixtures') }))).toBe(1);
    expect(err.join('')).toContain('broken.yaml');
  });

  it('exit 1 when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const { port } = taken.address() as AddressInfo;
    try {
      expect(await serve(mini({ port }))).toBe(1);
      expect(err.join('')).toMatch(new RegExp(`^error: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
    } finally {
      await new Promise<void>((r) => taken.close(() => r()));
    }
  });
});

describe('largeSpec: a spec whose reading leaves pages enough behind to compact', () => {
  const state = (...sizes: number[]) =>
    ({ spec: { texts: new Map(sizes.map((n, i) => [`f${i}.yaml`, 'x'.repeat(n)])) } }) as unknown as StubState;
  it.each<[string, number[], boolean]>([
    ["the bundled spec's files", [127_984, 10_519], false],
    ['one file of a million characters', [1_000_000], false],
    ['files of more than a million together', [600_000, 400_001], true],
  ])('%s', (_name, sizes, want) => {
    expect(largeSpec(state(...sizes))).toBe(want);
  });
});
