import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { type RecordOptions, runRecord } from '../../../src/contract/record.js';
import {
  answer,
  BASE,
  bundledContract,
  CRAWL,
  deployed,
  desk,
  EMPLOYEES,
  failure,
  honest,
  type Route,
} from './fake-deployment.js';

// The recorder's HTTP client asks a deployment made in process (fake-deployment.ts), not the network.
vi.mock('../../../src/contract/http.js', async (real) => (await import('./fake-deployment.js')).deployedHttp(real));

const contract = await bundledContract();
let dir: string;
let out: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'record-'));
  out = path.join(dir, 'fixtures');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const options = (over: Partial<RecordOptions> = {}): RecordOptions => ({
  ...CRAWL,
  outDir: out,
  force: false,
  ...over,
});
const desks = (pks: number[]) => pks.map((pk) => desk(pk));
const withoutUrl = ({ url: _url, ...rest }: Record<string, unknown>) => rest;
/** Desks and employees, each collection by its own route. */
const deployment =
  (deskRoute: Route, employeeRoute: Route = honest([], 2, BASE, EMPLOYEES)): Route =>
  (req) =>
    req.url.pathname.startsWith(EMPLOYEES) ? employeeRoute(req) : deskRoute(req);
async function record(route: Route, over: Partial<RecordOptions> = {}) {
  deployed.route = route;
  const r = await runRecord(contract, options(over));
  if (!r.ok) throw new Error(r.error);
  return r;
}
const json = async (file: string) => JSON.parse(await readFile(path.join(out, file), 'utf8')) as unknown;
const note = async () => parse(await readFile(path.join(out, 'recording.yaml'), 'utf8')) as Record<string, unknown>;

describe('runRecord: a deployment into fixtures', () => {
  it('records each item without its url, notes how to serve it, replaces --out whole', async () => {
    const stages: (string | undefined)[] = [];
    const r = await record(honest(desks([1, 2, 3, 4, 5])), { onStage: (d) => stages.push(d) });
    expect(r.collections).toEqual([
      { resource: 'desk', file: path.join(out, 'desk.json'), items: 5, written: true, invalid: 0, redacted: 0 },
    ]);
    expect(await json('desk.json')).toEqual(desks([1, 2, 3, 4, 5]).map(withoutUrl));
    expect([r.pageSize, r.suggested, r.carried, r.metadata]).toEqual([
      2,
      undefined,
      [],
      path.join(out, 'recording.yaml'),
    ]);
    expect(await note()).toMatchObject({
      recorded: BASE,
      serve: `workplace-stub --fixtures ${out} --page-size 2`,
      collections: { desk: { items: 5, file: 'desk.json' } },
      contractViolations: 0,
    });
    expect((await readdir(out)).sort()).toEqual(['desk.json', 'recording.yaml']);
    expect(await readdir(dir)).toEqual(['fixtures']);
    expect([stages.length, typeof stages[0], stages[1]]).toEqual([2, 'string', undefined]);
  });

  it('an empty collection is an empty fixture', async () => {
    await record(honest([]));
    expect(await json('desk.json')).toEqual([]);
  });

  it.each<[string, Route, Partial<RecordOptions>, RegExp]>([
    [
      'an item the stub would refuse',
      honest([...desks([1]), { ...desk(2), floor: 'x' }]),
      {},
      /^1 item the stub would refuse/,
    ],
    [
      'a pk on two pages (the collection changed)',
      honest([desk(1), desk(2), desk(1)]),
      {},
      /^pk 1 came on page 1 and again on page 2/,
    ],
    [
      'larger than the loader reads',
      honest(desks([1, 2, 3])),
      { maxFileBytes: 300 },
      /^larger than 300 bytes, the largest fixture the stub reads$/,
    ],
    ['cut short by --max-pages', honest(desks([1, 2, 3])), { maxPages: 1 }, /--allow-truncated records what was read/],
    ['no page could be read', () => answer(500, 'boom'), {}, /^no page of the collection could be read$/],
  ])('not written: %s', async (_name, route, over, reason) => {
    const r = await record(route, over);
    expect(r.collections[0]?.written).toBe(false);
    expect(r.collections[0]?.reason).toMatch(reason);
    expect(await readdir(out)).toEqual(['recording.yaml']);
    expect(await note()).toMatchObject({
      incomplete: '1 collection not recorded',
      collections: { desk: { written: false } },
    });
  });

  it('--allow-truncated records what was read', async () => {
    const r = await record(honest(desks([1, 2, 3])), { maxPages: 1, allowTruncated: true });
    expect(r.collections[0]).toMatchObject({ written: true, items: 2 });
  });

  it('items whose schema describes no field: a schema inferred for review; credentials redacted; integers as sent', async () => {
    const big = '9007199254740993';
    const employees: Route = (req) =>
      req.url.pathname === EMPLOYEES
        ? answer(
            200,
            `{"count":2,"next":null,"previous":null,"results":[{"pk":${big},"name":"a","note":"Token s3cr3t-t0k3n"},{"pk":2,"name":"b","url":"${BASE}${EMPLOYEES}/2"}]}`,
          )
        : answer(404, { detail: 'x' });
    const r = await record(deployment(honest([]), employees), {
      only: ['employee'],
      headers: { Authorization: 'Token s3cr3t-t0k3n' },
    });
    expect(r.collections[0]).toMatchObject({ resource: 'employee', written: true, items: 2, redacted: 1 });
    const text = await readFile(path.join(out, 'employee.json'), 'utf8');
    expect(text).toContain(`"pk": ${big}`);
    expect(text).toContain('"note": "[redacted]"');
    expect(text).not.toContain('"url"');
    expect(r.suggested).toBe(path.join(out, 'suggested-schemas.yaml'));
    const suggested = parse(await readFile(r.suggested as string, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(suggested.Employee).toMatchObject({
      type: 'object',
      required: ['pk', 'name'],
      properties: { pk: { type: 'integer' }, url: { type: 'string', format: 'uri' } },
    });
    expect(String(suggested.Employee?.description)).toMatch(/inferred from 2 recorded items/);
    expect(await readFile(r.suggested as string, 'utf8')).not.toContain('s3cr3t');
  });

  it('files of --out it does not write are carried into the new folder', async () => {
    await mkdir(out);
    await writeFile(path.join(out, 'README.md'), 'mine');
    const r = await record(honest(desks([1])));
    expect(r.carried).toEqual(['README.md']);
    expect(await readFile(path.join(out, 'README.md'), 'utf8')).toBe('mine');
    expect(await note()).toMatchObject({ keptFromBefore: ['README.md'] });
  });

  it('nothing reachable: nothing written, --out never made, no stage left', async () => {
    const r = await record(() => failure('ECONNREFUSED'));
    expect(r.report.unreachable).toBeDefined();
    expect([r.metadata, r.collections[0]?.written]).toEqual([undefined, false]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a fixture there already, without --force: refused, --out as it was', async () => {
    await mkdir(out);
    await writeFile(path.join(out, 'desk.json'), '[]');
    deployed.route = honest(desks([1]));
    const r = await runRecord(contract, options());
    expect(r).toEqual({ ok: false, error: `${out} already holds desk.json (--force overwrites)` });
    expect(await readdir(out)).toEqual(['desk.json']);
    expect((await record(honest(desks([1])), { force: true })).collections[0]?.written).toBe(true);
  });
});
