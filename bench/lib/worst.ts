// The worst-input section: each parser and filter fed the worst input a client can send at the
// stub's own limits (a body of Django's 2.5 MiB, a request line and headers under Node's 16 KiB,
// a large fixture for the filters), one request at a time, in this process. What is measured is
// the longest stretch the event loop was blocked while the stub answered it
// (perf_hooks.monitorEventLoopDelay, 1 ms resolution): the time every other request waited.
import { copyFile, link, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { loadState } from '../../src/load/state.js';
import { buildApp } from '../../src/server/app.js';
import { resolveConfig, stateOptions } from '../../src/server/config.js';
import { MAX_BODY_BYTES } from '../../src/server/node-adapter.js';
import { removeOnExit } from './proc.js';
import { type Check, checkLine, fmt, table } from './report.js';

export interface WorstOptions {
  root: string;
  /** A folder holding desk.json with the desks of the filter inputs (the scale section's fixture). */
  desksDir: string;
  count: number;
  log: (s: string) => void;
}

export interface WorstResult {
  checks: Check[];
  figures: Record<string, unknown>;
  markdown: string;
}

/** The target of every row: no request blocks the others longer than this. */
export const WORST_TARGET_MS = 50;
/** What a URL may hold: Node's default header limit is 16 KiB for the request line and headers together. */
const URL_ROOM = 15 * 1024;

interface Input {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** The url, made anew per run so that no answer is cached between the runs. */
  readonly url: (run: number) => string;
  readonly headers?: Record<string, string>;
  readonly body?: Buffer;
}

/** Repeats `unit` to fill `bytes`, between `head` and `tail`. */
function fill(head: string, unit: string, tail: string, bytes: number): Buffer {
  const n = Math.max(0, Math.floor((bytes - head.length - tail.length) / unit.length));
  return Buffer.from(head + unit.repeat(n) + tail, 'latin1');
}

function inputs(): Input[] {
  const max = MAX_BODY_BYTES;
  const json = { 'content-type': 'application/json' };
  const list = (q: string) => (run: number) => `/api/v1/desk?page=${1 + (run % 3)}&${q}`;
  const invalidUtf8 = Buffer.concat([fill('{"number":"', 'a', '', max - 4), Buffer.from([0xff]), Buffer.from('"}')]);
  return [
    {
      name: 'JSON body, an invalid UTF-8 byte at its end',
      method: 'POST',
      url: () => '/api/v1/desk',
      headers: json,
      body: invalidUtf8,
    },
    {
      name: 'JSON body, an array of numbers',
      method: 'POST',
      url: () => '/api/v1/desk',
      headers: json,
      body: fill('[', '1,', '1]', max),
    },
    {
      name: 'JSON body, nested arrays',
      method: 'POST',
      url: () => '/api/v1/desk',
      headers: json,
      body: fill('', '[', '', max),
    },
    {
      name: 'JSON body, a string of escapes',
      method: 'POST',
      url: () => '/api/v1/desk',
      headers: json,
      body: fill('{"number":"', '\\u00e9', '"}', max),
    },
    {
      name: "form body, fields past Django's 1,000",
      method: 'POST',
      url: () => '/api/v1/desk',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fill('', 'a=1&', 'a=1', max),
    },
    {
      name: 'multipart body, one header line repeating content-disposition',
      method: 'POST',
      url: () => '/api/v1/desk',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: fill('--b\r\ncontent-disposition:', ' content-disposition:', '\r\n\r\nx\r\n--b--\r\n', max),
    },
    {
      name: 'Prefer header, one long value',
      method: 'GET',
      url: (run) => `/api/v1/desk?page=${run + 1}`,
      headers: { prefer: `example=${'x,'.repeat(4000)}` },
    },
    {
      name: 'query string, one parameter repeated',
      method: 'GET',
      url: list('a=1&'.repeat(URL_ROOM / 4).slice(0, -1)),
    },
    {
      name: 'ordering, one field repeated',
      method: 'GET',
      url: list(`ordering=${'floor,'.repeat(URL_ROOM / 6)}floor`),
    },
    { name: 'ordering, two fields', method: 'GET', url: list('ordering=-floor,number') },
    { name: 'search, many terms', method: 'GET', url: list(`search=${'1 '.repeat(URL_ROOM / 2)}`) },
    { name: 'search, one term matching no desk', method: 'GET', url: list('search=zzz') },
    { name: 'filter, one field', method: 'GET', url: list('floor=3') },
    { name: 'the last page', method: 'GET', url: (run) => `/api/v1/desk?page=last&r=${run}` },
  ];
}

const rssMiB = () => process.memoryUsage().rss / 2 ** 20;

export async function runWorst(o: WorstOptions): Promise<WorstResult> {
  const checks: Check[] = [];
  // The designer spec: the desk list with filters, search, ordering, and JSON and form writes.
  const dir = await mkdtemp(path.join(tmpdir(), 'workplace-stub-bench-worst-'));
  removeOnExit(dir);
  const designer = path.join(o.root, 'test', 'fixtures', 'designer');
  // A hard link (the stub reads no symlink out of its folder), else a copy.
  await link(path.join(o.desksDir, 'desk.json'), path.join(dir, 'desk.json')).catch(() =>
    copyFile(path.join(o.desksDir, 'desk.json'), path.join(dir, 'desk.json')),
  );
  await copyFile(path.join(designer, 'fixtures', 'employee.json'), path.join(dir, 'employee.json'));
  const r = resolveConfig({
    logLevel: 'silent',
    specFile: path.join(designer, 'openapi.yaml'),
    fixturesDir: dir,
  });
  if (!r.ok) throw new Error(r.errors.join('; '));
  o.log(`worst inputs: loading ${fmt(o.count)} desks in this process…\n`);
  const state = await loadState(stateOptions(r.config));
  const app: FastifyInstance = await buildApp(r.config, { current: state });
  await app.ready();
  const rows: (string | number)[][] = [];
  const figures: Record<string, unknown> = {};
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  try {
    // Memory is compared after full collections (`npm run bench` runs node with --expose-gc): what
    // the state holds, not what garbage V8 has yet to take back.
    global.gc?.();
    const rssRead = rssMiB();
    for (const input of inputs()) {
      let worstMs = 0;
      let status = 0;
      let totalMs = 0;
      // Three runs, each its own url: the longest block of the three.
      for (let run = 0; run < 3; run++) {
        histogram.reset();
        histogram.enable();
        const started = performance.now();
        const res = await app.inject({
          method: input.method,
          url: input.url(run),
          headers: { host: '127.0.0.1', ...input.headers },
          ...(input.body ? { payload: input.body } : {}),
        });
        totalMs = Math.max(totalMs, performance.now() - started);
        // One more turn of the loop, so that a block at the very end is recorded.
        await new Promise((done) => setTimeout(done, 5));
        histogram.disable();
        status = res.statusCode;
        // The histogram's figure is the timer's delay past its 1 ms resolution, in nanoseconds.
        worstMs = Math.max(worstMs, histogram.max / 1e6);
      }
      const met = worstMs <= WORST_TARGET_MS;
      const check: Check = {
        name: `worst input: ${input.name}`,
        target: `≤ ${WORST_TARGET_MS} ms blocked`,
        measured: `${fmt(worstMs, 1)} ms (answer ${status})`,
        met,
      };
      checks.push(check);
      o.log(`${checkLine(check)}\n`);
      const bytes = (input.body?.length ?? 0) + input.url(0).length + JSON.stringify(input.headers ?? {}).length;
      rows.push([input.name, `${fmt(bytes / 1024, 1)} KiB`, status, `${fmt(worstMs, 1)} ms`, `${fmt(totalMs, 1)} ms`]);
      figures[input.name] = { status, blockedMs: worstMs, answerMs: totalMs, bytes };
    }
    // Memory under writes: one DELETE and one filter against the read-only figure, after the
    // garbage of the inputs above is collected (their field columns stay: a filter keeps them).
    global.gc?.();
    const del = await app.inject({ method: 'DELETE', url: '/api/v1/desk/2', headers: { host: '127.0.0.1' } });
    await app.inject({ url: '/api/v1/desk?floor=4&page=2', headers: { host: '127.0.0.1' } });
    global.gc?.();
    const rssWritten = rssMiB();
    const memCheck: Check = {
      name: `${fmt(o.count)} desks: RSS after a DELETE (${del.statusCode}) and a filter`,
      target: '≤ 1.5× read-only',
      measured:
        global.gc === undefined
          ? 'not measured: node runs without --expose-gc (npm run bench gives it), so garbage would count'
          : `${fmt(rssWritten, 1)} MiB against ${fmt(rssRead, 1)} MiB (${fmt(rssWritten / rssRead, 2)}×)`,
      met: global.gc === undefined ? undefined : rssWritten <= rssRead * 1.5,
    };
    checks.push(memCheck);
    o.log(`${checkLine(memCheck)}\n`);
    figures.memory = { rssReadMiB: rssRead, rssWrittenMiB: rssWritten };
  } finally {
    histogram.disable();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
  const markdown = [
    `The designer spec (test/fixtures/designer: filters, search, ordering, JSON and form writes on desks) over ${fmt(o.count)} desks, in the bench's own process through Fastify's inject; each input three times (its url varied so that no answer is cached), the longest block of the event loop kept. Bodies at Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MiB), urls and headers under Node's 16 KiB.`,
    '',
    table(['input', 'size', 'answer', 'event loop blocked (longest)', 'answer took'], rows),
  ].join('\n');
  return { checks, figures, markdown };
}
