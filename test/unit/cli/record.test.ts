import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RecordFlags, record } from '../../../src/cli/record.js';
import { DEFAULTS } from '../../../src/server/config.js';
import { BASE, deployed, desk, failure, honest, type Route } from '../contract/fake-deployment.js';
import { catchOutput, io } from './io.js';

// The recorder's HTTP client asks a deployment made in process (test/unit/contract/fake-deployment.ts).
vi.mock('../../../src/contract/http.js', async (real) =>
  (await import('../contract/fake-deployment.js')).deployedHttp(real),
);
vi.mock('../../../src/contract/load.js', async (real) => (await import('../contract/load-once.js')).loadedOnce(real));

const dir = await mkdtemp(path.join(tmpdir(), 'cli-record-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
catchOutput();
let out: string;
let n = 0;
beforeEach(() => {
  out = path.join(dir, `out${n++}`);
  deployed.route = honest([1, 2, 3].map((pk) => desk(pk)));
});
const flags = (over: Partial<RecordFlags> = {}): RecordFlags => ({
  baseUrl: BASE,
  out,
  force: false,
  spec: DEFAULTS.specFile,
  timeout: 1000,
  maxBody: 2 ** 20,
  concurrency: 2,
  maxPages: 10,
  allowTruncated: false,
  only: ['desk'],
  format: 'api',
  ...over,
});
const rel = (f: string) => path.relative(process.cwd(), f);

describe('workplace-stub record: the exit code and what it says', () => {
  it('0: every collection recorded; how to serve it; the signal handlers gone again', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    expect(await record(flags())).toBe(0);
    expect(io.out).toBe(
      [
        `Recording of ${BASE} into ${rel(out)}`,
        '',
        `✓ desk: 3 items → ${rel(path.join(out, 'desk.json'))}`,
        '',
        `Serve it: workplace-stub --fixtures ${rel(out)} --page-size 2`,
        '',
      ].join('\n'),
    );
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  });

  it('1: a collection not recorded; the violations seen pointed to', async () => {
    deployed.route = honest([desk(1), { ...desk(2), floor: -1 }]);
    expect(await record(flags())).toBe(1);
    expect(io.out).toContain('✗ desk: not written: 1 item the stub would refuse');
    expect(io.out).toContain(
      `1 contract violation seen while recording: run \`workplace-stub check --base-url ${BASE}\` for them`,
    );
    expect(io.out).toContain('Not a complete recording: 1 collection of 1 not recorded (desk).');
  });

  it('what --out held besides is kept, and said', async () => {
    await mkdir(out);
    await writeFile(path.join(out, 'README.md'), 'x');
    expect(await record(flags())).toBe(0);
    expect(io.out).toContain('Kept from the folder before (not recorded this time): README.md');
  });

  it.each<[string, Partial<RecordFlags>, Route | undefined, RegExp, RegExp]>([
    [
      '--only names no collection',
      { only: ['nosuch'] },
      undefined,
      /^error: --only names no collection of the spec: nosuch\n$/,
      /^$/,
    ],
    ['the spec cannot be loaded', { spec: path.join(dir, 'missing.yaml') }, undefined, /missing\.yaml/, /^$/],
    [
      'nothing reachable: the check says so',
      {},
      () => failure('ECONNREFUSED', 'refused'),
      /^$/,
      /cannot be reached: refused/,
    ],
  ])('2: %s', async (_name, over, route, err, stdout) => {
    if (route) deployed.route = route;
    expect(await record(flags(over))).toBe(2);
    expect(io.err).toMatch(err);
    expect(io.out).toMatch(stdout);
  });

  it('2: a fixture there already, without --force', async () => {
    await mkdir(out);
    await writeFile(path.join(out, 'desk.json'), '[]');
    expect(await record(flags())).toBe(2);
    expect(io.err).toBe(`error: ${out} already holds desk.json (--force overwrites)\n`);
  });

  it('3: the recorder failed; no stage left beside --out', async () => {
    deployed.route = () => {
      throw new Error('a defect');
    };
    expect(await record(flags())).toBe(3);
    expect(io.err).toBe('error: the recorder failed: a defect\n');
    expect((await readdir(dir)).filter((f) => f.includes('.recording-'))).toEqual([]);
  });
});
