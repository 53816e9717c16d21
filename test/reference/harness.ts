// The differential harness: the corpus sent to the stub and to the reference deployment (same
// configuration each), answers compared request by request, known version differences applied from
// the allow-list, the rest grouped into classes. Used by differential.test.ts; also runnable alone:
//
//   npx tsx test/reference/harness.ts            # prints the grouped summary, writes test-output/differential.json
//   DIFF_ONLY='page=' npx tsx test/reference/harness.ts   # only requests whose id contains the text
import { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALLOW_LIST, type AllowEntry } from './allow-list.js';
import { STUB_DECISIONS } from './decisions.js';
import { classify, compareAnswers, type Difference, observe, summariseAnswer } from './compare.js';
import { buildCorpus, type CorpusRequest, SERVERS, type ServerKey, SESSION, TOKENS, WRITE_METHODS } from './corpus.js';
import { referenceVersions, startReference } from './drf-server.js';
import { type Answer, mapLimit, send } from './send.js';
import { ROOT, startCli } from '../cli-helpers.js';
import { LOOPBACK_HOSTS } from '../../src/server/config.js';

export interface DifferentialOptions {
  /** Fixtures both servers load; the repository's fixtures/ by default. */
  fixturesDir?: string;
  /** Requests at once (per pair of servers in total). */
  concurrency?: number;
  /** Only the requests this keeps. */
  filter?: (r: CorpusRequest) => boolean;
  /** Where the JSON report goes; test-output/differential.json by default ('' for nowhere). */
  reportFile?: string;
  allowList?: readonly AllowEntry[];
  /** What is compared with the reference; the stub (`startCli` with stubArgs) by default. */
  candidate?: (key: ServerKey, fixturesDir: string) => Promise<Candidate>;
}

/** A server compared with the reference; `resetPath` puts its state back to the fixtures (POST, 204). */
export interface Candidate {
  url: string;
  stop(): Promise<void>;
  resetPath?: string;
}

/** The stub's reset (src/core/answer.ts RESET_PATH) and the reference's. */
export const STUB_RESET = '/__stub/reset';
export const REF_RESET = '/__ref/reset';

export interface ExampleRecord {
  request: { id: string; method: string; path: string; headers: [string, string][]; body?: string };
  reference: ReturnType<typeof summariseAnswer>;
  stub: ReturnType<typeof summariseAnswer>;
  /** The reference's answer as the newer versions give it, when allow-list entries adjusted it. */
  expected?: ReturnType<typeof summariseAnswer>;
  adjustedBy?: string[];
  differences: Difference[];
}

export interface DifferenceClass {
  kind: 'status' | 'header' | 'body';
  key: string;
  count: number;
  /** How many of the class's requests each corpus group holds. */
  groups: Record<string, number>;
  example: ExampleRecord;
  ids: string[];
}

export interface DifferentialReport {
  reference: string;
  compared: number;
  identical: number;
  allowListed: number;
  /** Answers a decision of the stub explains (decisions.ts). */
  decided: number;
  decidedBy: Record<string, number>;
  differing: number;
  allowListedBy: Record<string, number>;
  byGroup: Record<string, { compared: number; differing: number }>;
  classes: DifferenceClass[];
  durationMs: number;
  /** Of which the servers' start-up. */
  startupMs: number;
}

interface Pair {
  stub: { url: string; resetPath: string };
  reference: { url: string; stop(): Promise<void> };
}

function origin(url: string): string {
  return new URL(url).origin;
}

async function resetVia(base: string, path: string): Promise<void> {
  const a = await send(base, { method: 'POST', path, headers: [['Host', new URL(base).host]] });
  if (a.status !== 204)
    throw new Error(`POST ${path} on ${base} answered ${a.status || a.error}: ${a.body.slice(0, 200)}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}

let tokensFile: string | undefined;
function tokensFileOf(): string {
  if (!tokensFile) {
    const dir = mkdtempSync(join(tmpdir(), 'differential-'));
    tokensFile = join(dir, 'tokens.json');
    writeFileSync(tokensFile, JSON.stringify(TOKENS));
    writeFileSync(join(dir, 'sessions.json'), JSON.stringify([SESSION]));
  }
  return tokensFile;
}

/** The stub's arguments for a configuration. */
export function stubArgs(key: ServerKey, fixturesDir: string): string[] {
  const c = SERVERS[key];
  return [
    '--port',
    '0',
    '-q',
    '--page-size',
    String(c.pageSize),
    ...(c.trustProxy ? ['--trust-proxy'] : []),
    // The stub answers loopback names besides those listed; any host where the reference does.
    '--allowed-hosts',
    c.allowedHosts ? c.allowedHosts.join(',') : '*',
    ...(c.frontendOrigin ? ['--frontend-origin', c.frontendOrigin] : []),
    '--tokens',
    tokensFileOf(),
    '--sessions',
    join(dirname(tokensFileOf()), 'sessions.json'),
    '--fixtures',
    fixturesDir,
  ];
}

/** The reference's options for a configuration. */
export function referenceOptions(key: ServerKey, fixturesDir: string): Parameters<typeof startReference>[0] {
  const c = SERVERS[key];
  return {
    pageSize: c.pageSize,
    trustProxy: c.trustProxy,
    ...(c.allowedHosts ? { allowedHosts: [...LOOPBACK_HOSTS, ...c.allowedHosts] } : {}),
    ...(c.frontendOrigin ? { frontendOrigin: c.frontendOrigin } : {}),
    tokens: TOKENS,
    sessions: [SESSION],
    fixturesDir,
  };
}

/** The fixtures the differential loads into both servers: desks as the deployment can hold them. */
export const DIFFERENTIAL_FIXTURES = join(ROOT, 'test', 'reference', 'fixtures');

export function loadCorpus(fixturesDir = DIFFERENTIAL_FIXTURES): CorpusRequest[] {
  const desks = JSON.parse(readFileSync(join(fixturesDir, 'desk.json'), 'utf8')) as { pk: number }[];
  return buildCorpus(desks);
}

export async function runDifferential(opts: DifferentialOptions = {}): Promise<DifferentialReport> {
  const started = Date.now();
  const fixturesDir = opts.fixturesDir ?? DIFFERENTIAL_FIXTURES;
  const allowList = opts.allowList ?? ALLOW_LIST;
  const corpus = loadCorpus(fixturesDir).filter(opts.filter ?? (() => true));
  const keys = [...new Set(corpus.map((r) => r.server))];
  const pairs = new Map<ServerKey, Pair>();
  const stubs: ChildProcess[] = [];
  const refs: { stop(): Promise<void> }[] = [];
  let refStarts: Promise<unknown> = Promise.resolve();
  try {
    // The references start meanwhile (half a second each).
    const refsStarted = Promise.all(
      keys.map(async (k) => {
        const ref = await startReference(referenceOptions(k, fixturesDir));
        refs.push(ref);
        return [k, ref] as const;
      }),
    );
    refStarts = refsStarted.catch(() => undefined);
    // The stubs one after the other (each compiles its spec: CPU; startCli allows 20 s), once more on a failure.
    const stubStarted = new Map<ServerKey, Pair['stub']>();
    for (const k of keys) {
      if (opts.candidate) {
        const c = await opts.candidate(k, fixturesDir);
        refs.push(c);
        stubStarted.set(k, { url: c.url, resetPath: c.resetPath ?? STUB_RESET });
        continue;
      }
      let s: Awaited<ReturnType<typeof startCli>>;
      try {
        s = await startCli(stubArgs(k, fixturesDir));
      } catch {
        s = await startCli(stubArgs(k, fixturesDir));
      }
      stubs.push(s.child);
      stubStarted.set(k, { url: s.url, resetPath: STUB_RESET });
    }
    for (const [k, ref] of await refsStarted)
      pairs.set(k, { stub: stubStarted.get(k) as Pair['stub'], reference: ref });
    const startupMs = Date.now() - started;

    const compareOne = async (req: CorpusRequest, answers?: [Answer, Answer]) => {
      const pair = pairs.get(req.server) as Pair;
      const [refAnswer, stubAnswer] =
        answers ?? (await Promise.all([send(pair.reference.url, req), send(pair.stub.url, req)]));
      const cors = { cors: SERVERS[req.server].frontendOrigin !== undefined };
      const ref = observe(refAnswer, origin(pair.reference.url), req.method, cors);
      const stub = observe(stubAnswer, origin(pair.stub.url), req.method, cors);
      // Known version differences: the reference's answer turned into the one DRF 3.16 / Django 5.2 give.
      let state = { request: req, answer: refAnswer };
      const adjustedBy: string[] = [];
      const ctx = { reference: (r: CorpusRequest) => send(pair.reference.url, r) };
      for (const entry of allowList) {
        const next = await entry.adjust(state, ctx);
        if (!next) continue;
        const before = observe(state.answer, origin(pair.reference.url), req.method, cors);
        const after = observe(next.answer, origin(pair.reference.url), req.method, cors);
        if (compareAnswers(before, after).length) adjustedBy.push(entry.id);
        state = next;
      }
      const expected = adjustedBy.length
        ? observe(state.answer, origin(pair.reference.url), req.method, cors)
        : undefined;
      const diffs = compareAnswers(expected ?? ref, stub);
      const decision = diffs.length ? STUB_DECISIONS.find((d) => d.applies(req, stubAnswer)) : undefined;
      if (decision) return { req, outcome: 'decided' as const, adjustedBy: [decision.id] };
      if (!diffs.length)
        return adjustedBy.length
          ? { req, outcome: 'allow-listed' as const, adjustedBy }
          : { req, outcome: 'identical' as const };
      // A stub that answers as the old versions do where the new ones differ is marked so.
      const asOld = expected !== undefined && !compareAnswers(ref, stub).length;
      const cls = classify(diffs, expected ?? ref, stub, { newer: adjustedBy, asOld });
      return { req, outcome: 'differing' as const, cls, ref, stub, expected, adjustedBy, diffs };
    };
    const reset = async (server: ServerKey) => {
      const pair = pairs.get(server) as Pair;
      await Promise.all([resetVia(pair.reference.url, REF_RESET), resetVia(pair.stub.url, pair.stub.resetPath)]);
    };

    // Reads at once; then each write alone (both servers reset after one that either did not refuse
    // with a 4xx); then each sequence in order after a reset. (Allow-list rewrites of a write would
    // resend it: none of the entries applies to a write.)
    const isRead = (r: CorpusRequest) => !r.sequence && !WRITE_METHODS.has(r.method);
    const results = await mapLimit(corpus.filter(isRead), opts.concurrency ?? 6, (req) => compareOne(req));
    for (const req of corpus.filter((r) => !r.sequence && WRITE_METHODS.has(r.method))) {
      const pair = pairs.get(req.server) as Pair;
      const answers: [Answer, Answer] = await Promise.all([send(pair.reference.url, req), send(pair.stub.url, req)]);
      results.push(await compareOne(req, answers));
      if (answers.some((a) => a.status < 400 || a.status >= 500)) await reset(req.server);
    }
    const sequences = new Map<string, CorpusRequest[]>();
    for (const r of corpus) if (r.sequence) sequences.set(r.sequence, [...(sequences.get(r.sequence) ?? []), r]);
    for (const steps of sequences.values()) {
      await reset((steps[0] as CorpusRequest).server);
      for (const req of steps) results.push(await compareOne(req));
    }
    if (sequences.size)
      for (const k of new Set([...sequences.values()].map((s) => (s[0] as CorpusRequest).server))) await reset(k);

    return summarise(results, {
      reference: `Django ${referenceVersions().replace(' ', ' + DRF ')} (test/reference/drf)`,
      started,
      startupMs,
      file: opts.reportFile ?? join(ROOT, 'test-output', 'differential.json'),
    });
  } finally {
    await refStarts; // (a failed start elsewhere must not leave a reference running)
    await Promise.all([...stubs.map(stopChild), ...refs.map((r) => r.stop())]);
  }
}

/** One compared request, as both harnesses give them to `summarise` (a differing one with its answers). */
export interface Compared {
  readonly req: {
    readonly id: string;
    readonly group: string;
    readonly method: string;
    readonly path: string;
    readonly headers: [string, string][];
    readonly body?: string;
  };
  readonly outcome: 'identical' | 'allow-listed' | 'decided' | 'differing';
  readonly adjustedBy?: readonly string[] | undefined;
  readonly cls?: { readonly kind: 'status' | 'header' | 'body'; readonly key: string } | undefined;
  readonly ref?: Parameters<typeof summariseAnswer>[0] | undefined;
  readonly stub?: Parameters<typeof summariseAnswer>[0] | undefined;
  readonly expected?: Parameters<typeof summariseAnswer>[0] | undefined;
  readonly diffs?: Difference[] | undefined;
}

/** The figures of a differential run, its differences grouped in classes (one example each), written to `file`. */
export function summarise(
  results: readonly Compared[],
  meta: { reference: string; started: number; startupMs: number; file: string | undefined },
): DifferentialReport {
  const report: DifferentialReport = {
    reference: meta.reference,
    compared: results.length,
    identical: 0,
    allowListed: 0,
    decided: 0,
    differing: 0,
    allowListedBy: {},
    decidedBy: {},
    byGroup: {},
    classes: [],
    durationMs: 0,
    startupMs: meta.startupMs,
  };
  const classes = new Map<string, DifferenceClass>();
  for (const r of results) {
    const g = (report.byGroup[r.req.group] ??= { compared: 0, differing: 0 });
    g.compared++;
    if (r.outcome === 'identical') report.identical++;
    else if (r.outcome === 'decided') {
      report.decided++;
      for (const id of r.adjustedBy ?? []) report.decidedBy[id] = (report.decidedBy[id] ?? 0) + 1;
    } else if (r.outcome === 'allow-listed') {
      report.allowListed++;
      for (const id of r.adjustedBy ?? []) report.allowListedBy[id] = (report.allowListedBy[id] ?? 0) + 1;
    } else if (r.cls && r.ref && r.stub) {
      report.differing++;
      g.differing++;
      let c = classes.get(r.cls.key);
      if (!c) {
        c = {
          kind: r.cls.kind,
          key: r.cls.key,
          count: 0,
          groups: {},
          ids: [],
          example: {
            request: {
              id: r.req.id,
              method: r.req.method,
              path: r.req.path,
              headers: r.req.headers,
              ...(r.req.body !== undefined ? { body: r.req.body } : {}),
            },
            reference: summariseAnswer(r.ref),
            stub: summariseAnswer(r.stub),
            ...(r.expected ? { expected: summariseAnswer(r.expected), adjustedBy: [...(r.adjustedBy ?? [])] } : {}),
            differences: r.diffs ?? [],
          },
        };
        classes.set(r.cls.key, c);
      }
      c.count++;
      c.groups[r.req.group] = (c.groups[r.req.group] ?? 0) + 1;
      if (c.ids.length < 100) c.ids.push(r.req.id);
    }
  }
  const order = { status: 0, header: 1, body: 2 };
  report.classes = [...classes.values()].sort(
    (a, b) => order[a.kind] - order[b.kind] || b.count - a.count || a.key.localeCompare(b.key),
  );
  report.durationMs = Date.now() - meta.started;
  if (meta.file) {
    mkdirSync(join(meta.file, '..'), { recursive: true });
    writeFileSync(meta.file, `${JSON.stringify(report, null, 2)}\n`);
  }
  return report;
}

function indent(s: string, by: string): string {
  return s
    .split('\n')
    .map((l) => by + l)
    .join('\n');
}

function answerLine(a: ReturnType<typeof summariseAnswer>): string {
  const h = Object.entries(a.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  const body = a.body.length > 220 ? `${a.body.slice(0, 220)}…` : a.body;
  return `${a.error ? `no answer (${a.error})` : a.status} [${h}] ${JSON.stringify(body)}`;
}

/** The grouped summary: the figure, then each class of difference with one example. */
export function formatReport(report: DifferentialReport, opts: { maxClasses?: number } = {}): string {
  const lines: string[] = [];
  lines.push(
    `Differential: stub vs ${report.reference}, ${report.compared} requests in ${(report.durationMs / 1000).toFixed(1)} s (start-up ${(report.startupMs / 1000).toFixed(1)} s)`,
  );
  const allowed = Object.entries(report.allowListedBy)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  lines.push(
    `  identical ${report.identical}, allow-listed ${report.allowListed}${allowed ? ` (${allowed})` : ''}, decided ${report.decided}${
      Object.keys(report.decidedBy).length
        ? ` (${Object.entries(report.decidedBy)
            .map(([id, n]) => `${id} ${n}`)
            .join(', ')})`
        : ''
    }, differing ${report.differing}`,
  );
  if (report.differing) {
    lines.push(
      `  differing by corpus group: ${Object.entries(report.byGroup)
        .filter(([, g]) => g.differing)
        .map(([k, g]) => `${k} ${g.differing}/${g.compared}`)
        .join(', ')}`,
    );
  }
  const max = opts.maxClasses ?? 60;
  for (const kind of ['status', 'header', 'body'] as const) {
    const cs = report.classes.filter((c) => c.kind === kind);
    if (!cs.length) continue;
    lines.push('', `${kind} differences: ${cs.length} classes, ${cs.reduce((n, c) => n + c.count, 0)} requests`);
    for (const c of cs.slice(0, max)) {
      lines.push(`  [${c.count}] ${c.key}`);
      lines.push(`      e.g. ${c.example.request.id}`);
      lines.push(indent(`reference: ${answerLine(c.example.reference)}`, '        '));
      if (c.example.expected)
        lines.push(
          indent(`expected (${c.example.adjustedBy?.join(', ')}): ${answerLine(c.example.expected)}`, '        '),
        );
      lines.push(indent(`stub:      ${answerLine(c.example.stub)}`, '        '));
    }
    if (cs.length > max) lines.push(`  … ${cs.length - max} more classes in test-output/differential.json`);
  }
  return lines.join('\n');
}

// Run alone: print the summary (never fails on differences).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const only = process.env.DIFF_ONLY;
  const report = await runDifferential({
    ...(only ? { filter: (r) => r.id.includes(only) } : {}),
    ...(process.env.DIFF_CONCURRENCY ? { concurrency: Number(process.env.DIFF_CONCURRENCY) } : {}),
  });
  process.stdout.write(`${formatReport(report, { maxClasses: Number(process.env.DIFF_MAX_CLASSES ?? 200) })}\n`);
}
