// The designer differential: the designer corpus (designer-corpus.ts) sent to the stub serving the
// designer's spec (test/fixtures/designer/openapi.yaml) and to the reference's designer profile
// (REF_PROFILE=designer), sequence by sequence; answers compared as the main harness compares them;
// known version differences from designer-allow-list.ts. Used by designer-differential.test.ts; alone:
//
//   npx tsx test/reference/designer-harness.ts             # the grouped summary; test-output/designer-differential.json
//   DIFF_ONLY='search=' npx tsx test/reference/designer-harness.ts   # only sequences with a request whose id contains the text
//   DESIGNER_NEWER=/path npx tsx test/reference/designer-harness.ts  # the allow-list checked against the newer versions
//       themselves: the same designer profile run with PYTHONPATH=/path (Django 5.2, DRF 3.16, django-filter 25
//       unpacked there) in the stub's place; every difference left is a version difference the allow-list misses
//
// Both servers start from the same items: the designer's fixtures (desk, employee) and, for the
// signature collection the spec gives no fixture, the 25 items the stub generates (read from the stub
// and written to a temporary fixture folder for the reference). Before each sequence of writes (and
// after one) both are reset: the stub with `POST /__stub/reset`, the reference with its test-only
// `POST /__ref/reset`.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, compareAnswers, type Difference, observe } from './compare.js';
import { buildDesignerCorpus, type DesignerRequest, type Sequence } from './designer-corpus.js';
import { DESIGNER_ALLOW_LIST, type DesignerAllowEntry } from './designer-allow-list.js';
import { PYTHON, referenceGate, referenceVersions, startReference } from './drf-server.js';
import { type DifferentialReport, summarise } from './harness.js';
import { type Answer, mapLimit, send } from './send.js';
import { ROOT, startCli } from '../cli-helpers.js';

export const DESIGNER_DIR = join(ROOT, 'test', 'fixtures', 'designer');
export const DESIGNER_SPEC = join(DESIGNER_DIR, 'openapi.yaml');
export const DESIGNER_FIXTURES = join(DESIGNER_DIR, 'fixtures');
/** PAGE_SIZE of both servers: 12 desks are three pages, 25 signatures five. */
export const DESIGNER_PAGE_SIZE = 5;

export interface Server {
  url: string;
  /** Puts the state back to the fixtures. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export interface DesignerOptions {
  /** Only the sequences this keeps. */
  filter?: (s: Sequence) => boolean;
  /** Where the JSON report goes; test-output/designer-differential.json by default ('' for nowhere). */
  reportFile?: string;
  allowList?: readonly DesignerAllowEntry[];
  /** Requests at once within a sequence of reads. */
  concurrency?: number;
  /**
   * What is compared with the reference (the stub by default), given the fixture folder both load.
   * With a candidate, the fixtures are the designer's own (no signatures: nothing generates them).
   */
  candidate?: (fixturesDir: string) => Promise<Server>;
}

/**
 * As referenceGate, and django-filter importable too (the designer profile's filter backend: Debian's
 * python3-django-filters): skip with a message without it, fail under CI=true or REQUIRE_REFERENCE=1.
 */
export function designerGate(): ReturnType<typeof referenceGate> {
  const gate = referenceGate('designer');
  if (!gate.run) return gate;
  const probe = spawnSync(PYTHON, ['-c', 'import django_filters'], { encoding: 'utf8', timeout: 15_000 });
  if (probe.status === 0) return gate;
  const why = `${PYTHON} cannot import django_filters (apt-get install -y python3-django-filters): ${(probe.stderr ?? '').trim().split('\n').pop() ?? ''}`;
  const required = process.env.CI === 'true' || process.env.REQUIRE_REFERENCE === '1';
  return required
    ? { run: false, skip: false, why: `${why} (required: CI=true or REQUIRE_REFERENCE=1)` }
    : { run: false, skip: true, why };
}

function origin(url: string): string {
  return new URL(url).origin;
}

async function resetVia(base: string, path: string): Promise<void> {
  const a = await send(base, { method: 'POST', path, headers: [['Host', new URL(base).host]] });
  if (a.status !== 204)
    throw new Error(`POST ${path} on ${base} answered ${a.status || a.error}: ${a.body.slice(0, 200)}`);
}

export async function startDesignerStub(fixturesDir = DESIGNER_FIXTURES): Promise<Server> {
  const args = [
    '--port',
    '0',
    '-q',
    '--page-size',
    String(DESIGNER_PAGE_SIZE),
    '--spec',
    DESIGNER_SPEC,
    '--fixtures',
    fixturesDir,
    '--allowed-hosts',
    '*',
  ];
  let s: Awaited<ReturnType<typeof startCli>>;
  try {
    s = await startCli(args);
  } catch {
    s = await startCli(args); // once more (a loaded machine)
  }
  const { child, url } = s;
  return {
    url,
    reset: () => resetVia(url, '/__stub/reset'),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function startDesignerReference(fixturesDir: string, pythonPath?: string): Promise<Server> {
  const ref = await startReference({
    profile: 'designer',
    pageSize: DESIGNER_PAGE_SIZE,
    fixturesDir,
    ...(pythonPath ? { pythonPath } : {}),
  });
  return { url: ref.url, reset: () => resetVia(ref.url, '/__ref/reset'), stop: () => ref.stop() };
}

/** Every item of a collection as the server lists it (following `next`). */
export async function listAll(base: string, path: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let next: string | null = path;
  for (let guard = 0; next !== null && guard < 1000; guard++) {
    const u = new URL(next, base);
    const a = await send(base, {
      method: 'GET',
      path: `${u.pathname}${u.search}`,
      headers: [
        ['Host', new URL(base).host],
        ['Accept', 'application/json'],
      ],
    });
    if (a.status !== 200) throw new Error(`GET ${u.pathname}${u.search} on ${base} answered ${a.status || a.error}`);
    const page = JSON.parse(a.body) as { next: string | null; results: Record<string, unknown>[] };
    items.push(...page.results);
    next = page.next;
  }
  return items;
}

/** A fixture folder for the reference: the designer's files, and the signatures the stub serves. */
export function writeReferenceFixtures(signatures: Record<string, unknown>[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'designer-ref-fixtures-'));
  for (const f of ['desk.json', 'employee.json']) copyFileSync(join(DESIGNER_FIXTURES, f), join(dir, f));
  writeFileSync(join(dir, 'signature.json'), `${JSON.stringify(signatures, null, 2)}\n`);
  return dir;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function runDesignerDifferential(opts: DesignerOptions = {}): Promise<DifferentialReport> {
  const started = Date.now();
  const allowList = opts.allowList ?? DESIGNER_ALLOW_LIST;
  const sequences = buildDesignerCorpus().filter(opts.filter ?? (() => true));
  let candidate: Server | undefined;
  let reference: Server | undefined;
  let tmp: string | undefined;
  try {
    let fixturesDir: string;
    if (opts.candidate) {
      fixturesDir = DESIGNER_FIXTURES;
      candidate = await opts.candidate(fixturesDir);
    } else {
      candidate = await startDesignerStub();
      // the signatures the stub generates (the spec has no fixture for them): the reference loads the same
      tmp = writeReferenceFixtures(await listAll(candidate.url, '/api/v1/signature'));
      fixturesDir = tmp;
    }
    reference = await startDesignerReference(fixturesDir);
    const startupMs = Date.now() - started;
    const ref = reference;
    const stub = candidate;

    type Result =
      | { req: DesignerRequest; outcome: 'identical' }
      | { req: DesignerRequest; outcome: 'allow-listed'; adjustedBy: string[] }
      | {
          req: DesignerRequest;
          outcome: 'differing';
          cls: ReturnType<typeof classify>;
          ref: ReturnType<typeof observe>;
          stub: ReturnType<typeof observe>;
          expected?: ReturnType<typeof observe>;
          adjustedBy: string[];
          diffs: Difference[];
        };

    const one = async (req: DesignerRequest): Promise<Result> => {
      const [refAnswer, stubAnswer] = await Promise.all([send(ref.url, req), send(stub.url, req)]);
      const refObs = observe(refAnswer, origin(ref.url), req.method);
      const stubObs = observe(stubAnswer, origin(stub.url), req.method);
      let state = { request: req, answer: refAnswer };
      const adjustedBy: string[] = [];
      // An entry may ask the reference an equivalent request: a read, or a write whose original the
      // reference refused (4xx/5xx: nothing was written), so that the state stays as the newer versions'.
      const ctx = {
        reference: (r: DesignerRequest): Promise<Answer> => {
          if (!SAFE.has(r.method) && refAnswer.status < 400)
            throw new Error(`allow-list: would repeat a write the reference accepted: ${req.id}`);
          return send(ref.url, r);
        },
      };
      for (const entry of allowList) {
        const next = await entry.adjust(state, ctx);
        if (!next) continue;
        const before = observe(state.answer, origin(ref.url), req.method);
        const after = observe(next.answer, origin(ref.url), req.method);
        if (compareAnswers(before, after).length) adjustedBy.push(entry.id);
        state = next;
      }
      const expected = adjustedBy.length ? observe(state.answer, origin(ref.url), req.method) : undefined;
      const diffs = compareAnswers(expected ?? refObs, stubObs);
      if (!diffs.length)
        return adjustedBy.length ? { req, outcome: 'allow-listed', adjustedBy } : { req, outcome: 'identical' };
      const asOld = expected !== undefined && !compareAnswers(refObs, stubObs).length;
      const cls = classify(diffs, expected ?? refObs, stubObs, { newer: adjustedBy, asOld });
      return {
        req,
        outcome: 'differing',
        cls,
        ref: refObs,
        stub: stubObs,
        ...(expected ? { expected } : {}),
        adjustedBy,
        diffs,
      };
    };

    const results: Result[] = [];
    let dirty = true; // the stub's answers to listAll changed nothing, but start clean
    for (const seq of sequences) {
      if (dirty || seq.writes) {
        await Promise.all([ref.reset(), stub.reset()]);
        dirty = false;
      }
      if (seq.writes) {
        for (const req of seq.requests) results.push(await one(req));
        dirty = true;
      } else {
        results.push(...(await mapLimit(seq.requests, opts.concurrency ?? 4, one)));
      }
    }

    return summarise(results, {
      reference: `Django ${referenceVersions('designer').replace(' ', ' + DRF ')} (test/reference/drf, REF_PROFILE=designer)${opts.candidate ? " [candidate in the stub's place]" : ''}`,
      started,
      startupMs,
      file: opts.reportFile ?? join(ROOT, 'test-output', 'designer-differential.json'),
    });
  } finally {
    await Promise.all([candidate?.stop(), reference?.stop()]);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

// Run alone: print the summary (never fails on differences).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { formatReport } = await import('./harness.js');
  const only = process.env.DIFF_ONLY;
  const newer = process.env.DESIGNER_NEWER;
  const report = await runDesignerDifferential({
    ...(only ? { filter: (s) => s.requests.some((r) => r.id.includes(only)) } : {}),
    ...(newer
      ? {
          candidate: (dir) => startDesignerReference(dir, newer),
          reportFile: join(ROOT, 'test-output', 'designer-differential-newer.json'),
        }
      : {}),
  });
  process.stdout.write(`${formatReport(report, { maxClasses: Number(process.env.DIFF_MAX_CLASSES ?? 200) })}\n`);
}
