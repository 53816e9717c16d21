// The side-by-side section: every target answers the stub's desk list bytes (verified first),
// then interleaved rounds of load (A B C … A B C …), medians, ratios from the same run; then,
// where wrk is installed, the same for the fastest targets with wrk.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent } from 'node:http';
import path from 'node:path';
import { type Load, load, round2, summarize, wrkLoad, wrkVersion } from './load.js';
import {
  type Answer,
  cpuPlacement,
  get,
  groupCpuMs,
  groupRssMiB,
  lastLines,
  pause,
  resume,
  type Started,
  startProcess,
  stop,
  waitReady,
  freePort,
} from './proc.js';
import { type Check, checkLine, fmt, ratio, table } from './report.js';
import { type Ctx, PEERS, TARGETS, type TargetDef } from './targets.js';

export interface PeersOptions {
  root: string;
  work: string;
  /** Where the servers' stdout files go (in memory where the machine has a tmpfs). */
  logs: string;
  host: string;
  deskPath: string;
  /** `npm start`'s arguments after `node`. */
  start: string[];
  seconds: number;
  rounds: number;
  warmSeconds: number;
  connections: number;
  /** Target keys to leave out (`--skip`). */
  skip: string[];
  log: (s: string) => void;
}

interface Running {
  def: TargetDef;
  proc: Started;
  startupMs: number;
  answer: Answer;
}

export interface TargetResult {
  key: string;
  label: string;
  version: string;
  how: string;
  /** The command line it ran ($WORK: the bench's temporary folder). */
  command?: string;
  notRun?: string;
  startupMs?: number;
  status?: number;
  contentType?: string;
  contentLength?: string;
  bodyBytes?: number;
  identical?: boolean;
  difference?: string;
  load?: Load & { rounds: number };
  runs?: Load[];
  overRaw?: number;
  overPrismSilent?: number;
  /** Raw's CPU per answer over this target's: the req/s ratio it would have where the server's core, not the load generator's, is the limit. */
  cpuOverRaw?: number;
  rssAfterLoadMiB?: number;
  logDuringLoad?: { bytes: number; lines: number };
  /** The same load by wrk (where installed): medians of its rounds. */
  wrk?: Load & { rounds: number; runs: Load[] };
  wrkOverRaw?: number;
  wrkCpuOverRaw?: number;
}

/** The targets loaded with wrk too: those whose req/s autocannon's core limits. */
const WRK_TARGETS = ['raw', 'stub', 'stub-q'];

export interface PeersResult {
  host: string;
  path: string;
  bodyBytes: number;
  /** Where the load and the servers ran (cpuPlacement). */
  placement: string;
  targets: TargetResult[];
  checks: Check[];
  markdown: string;
}

/** Installs bench/peers on first use (`npm ci --prefix bench/peers`); returns why not, if it fails. */
export async function installPeers(root: string, log: (s: string) => void): Promise<string | undefined> {
  if (existsSync(path.join(root, PEERS, 'node_modules'))) return undefined;
  log(`installing the peers: npm ci --prefix ${PEERS} (once; about 30 s)\n`);
  return new Promise((resolve) => {
    const c = spawn('npm', ['ci', '--prefix', PEERS, '--no-audit', '--no-fund'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    c.on('error', (e) => resolve(`npm ci failed: ${e.message}`));
    c.on('exit', (code) => resolve(code === 0 ? undefined : `npm ci --prefix ${PEERS} exited ${code}`));
  });
}

function describeDifference(got: Buffer, want: Buffer): string {
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  const show = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, i - 15), i + 25).toString('utf8'));
  let what = `${got.length} bytes instead of ${want.length}; first difference at byte ${i}: ${show(got)} where the stub has ${show(want)}`;
  try {
    if (JSON.stringify(JSON.parse(got.toString('utf8'))) === want.toString('utf8'))
      what += ' (the same JSON value, serialized differently)';
  } catch {
    // not JSON
  }
  return what;
}

export async function runPeers(o: PeersOptions, installProblem: string | undefined): Promise<PeersResult> {
  const headers = { host: o.host };
  const results = new Map<string, TargetResult>();
  const running: Running[] = [];
  let ctx: Ctx | undefined;
  const placement = cpuPlacement();
  const wrk = o.skip.includes('wrk') ? undefined : wrkVersion();

  try {
    for (const def of TARGETS) results.set(def.key, { key: def.key, label: def.label, version: '', how: def.how });
    // The stub starts first: its answer gives the bytes (and the raw server its headers).
    const order = [...TARGETS.filter((t) => t.key === 'stub'), ...TARGETS.filter((t) => t.key !== 'stub')];
    for (const def of order) {
      const r = results.get(def.key) as TargetResult;
      if (o.skip.includes(def.key)) {
        r.notRun = 'left out (--skip)';
        continue;
      }
      if (installProblem && def.needsPeers) {
        r.notRun = installProblem;
        continue;
      }
      const c: Ctx = ctx ?? {
        root: o.root,
        work: o.work,
        body: Buffer.alloc(0),
        headers: {},
        deskPath: o.deskPath,
        host: o.host,
        start: o.start,
      };
      let proc: Started | undefined;
      try {
        r.version = def.version(c);
        if (ctx) await def.prepare(ctx);
        else if (def.key !== 'stub')
          throw new Error('the stub (npm start) did not start, so there are no bytes to compare with');
        const port = await freePort();
        const launched = def.launch(c, port);
        // Every server where the load will not run (cpuPlacement), its threads and children too.
        const l = placement
          ? { ...launched, cmd: 'taskset', args: ['-c', placement.serverCpus, launched.cmd, ...launched.args] }
          : launched;
        r.command =
          `${placement ? `taskset -c ${placement.serverCpus} ` : ''}${[path.basename(launched.cmd), ...launched.args].join(' ')}`
            .replaceAll(o.work, '$WORK')
            .replaceAll(`${o.root}/`, '');
        o.log(`starting ${def.label}…`);
        const t0 = performance.now();
        proc = startProcess(def.label, l.cmd, l.args, port, {
          cwd: l.cwd,
          env: l.env,
          stdoutFile: path.join(o.logs, `${def.key}.stdout`),
        });
        const startupMs = Math.round(await waitReady(proc, o.deskPath, headers, t0, def.startTimeoutMs));
        const answer = await get(port, o.deskPath, headers);
        if (!ctx) {
          const h: Record<string, string> = {};
          for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
            const k = (answer.rawHeaders[i] ?? '').toLowerCase();
            if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k))
              h[k] = answer.rawHeaders[i + 1] ?? '';
          }
          ctx = { ...c, body: answer.body, headers: h };
        }
        running.push({ def, proc, startupMs, answer });
        r.startupMs = startupMs;
        o.log(` ${startupMs} ms\n`);
      } catch (e) {
        r.notRun = (e as Error).message.split('\n')[0]?.slice(0, 400) ?? String(e);
        o.log(` not run: ${r.notRun}\n`);
        await stop(proc);
      }
    }
    if (!ctx) throw new Error(`the stub did not start: ${results.get('stub')?.notRun ?? '?'}`);
    // Measured in the table's order (raw first), whatever the order of start-up.
    running.sort((a, b) => TARGETS.indexOf(a.def) - TARGETS.indexOf(b.def));
    const expected = ctx.body;

    // Same bytes: compared before anything is measured, over a keep-alive connection as the load.
    const agent = new Agent({ keepAlive: true });
    for (const t of running) {
      const r = results.get(t.def.key) as TargetResult;
      const a = await get(t.proc.port, o.deskPath, headers, 5000, agent);
      r.status = a.status;
      r.contentType = String(a.headers['content-type'] ?? '');
      r.contentLength =
        a.headers['content-length'] === undefined
          ? `none (${a.headers['transfer-encoding'] ?? 'until close'})`
          : String(a.headers['content-length']);
      r.bodyBytes = a.body.length;
      r.identical = a.status === 200 && a.body.equals(expected) && a.body.equals(t.answer.body);
      if (!r.identical) r.difference = a.status !== 200 ? `status ${a.status}` : describeDifference(a.body, expected);
    }
    agent.destroy();

    // Each load runs with every other server paused (SIGSTOP), then lets them run again.
    const alone = async <T>(t: Running, fn: () => Promise<T>): Promise<T> => {
      const others = running.filter((u) => u !== t && !u.proc.exited());
      for (const u of others) pause(u.proc);
      try {
        return await fn();
      } finally {
        for (const u of others) resume(u.proc);
      }
    };
    // Warm-up (JIT, JVM), then the interleaved rounds: the load from CPU 0 only (cpuPlacement).
    placement?.pinSelf();
    for (const t of running) {
      o.log(`\rwarm-up: ${t.def.label}                    `);
      await alone(t, () =>
        load({ port: t.proc.port, path: o.deskPath, host: o.host, seconds: o.warmSeconds, connections: o.connections }),
      );
    }
    const logBefore = new Map(
      running.map((t) => [t.def.key, { bytes: t.proc.stdoutBytes(), lines: t.proc.stdoutLines() }]),
    );
    /** Interleaved rounds of one generator over `targets`, each loaded alone: its loads by target. */
    const rounds = async (
      name: string,
      targets: Running[],
      loadOne: (t: Running) => Promise<Load>,
    ): Promise<Map<string, Load[]>> => {
      const by = new Map<string, Load[]>();
      for (let round = 1; round <= o.rounds; round++) {
        for (const t of targets) {
          o.log(`\r${name} ${round}/${o.rounds}: ${t.def.label}                    `);
          if (t.proc.exited()) continue;
          const l = await alone(t, () => loadOne(t));
          (by.get(t.def.key) ?? by.set(t.def.key, []).get(t.def.key))?.push(l);
        }
      }
      return by;
    };
    const base = (t: Running) => ({
      port: t.proc.port,
      path: o.deskPath,
      host: o.host,
      seconds: o.seconds,
      connections: o.connections,
      serverCpuMs: () => groupCpuMs(t.proc.pid),
    });
    const runs = await rounds('round', running, (t) => load(base(t)));
    // The same again with wrk, where it is installed, for the targets fast enough that autocannon's
    // core is their limit: raw, and the stub both ways.
    const wrkRuns =
      wrk === undefined
        ? new Map<string, Load[]>()
        : await rounds(
            'wrk round',
            running.filter((t) => WRK_TARGETS.includes(t.def.key)),
            (t) => wrkLoad({ ...base(t), pinned: placement !== undefined }),
          );
    o.log('\r\x1b[2K');
    placement?.unpinSelf();
    for (const t of running) {
      const r = results.get(t.def.key) as TargetResult;
      r.runs = runs.get(t.def.key) ?? [];
      if (r.runs.length) r.load = summarize(r.runs);
      const w = wrkRuns.get(t.def.key) ?? [];
      if (w.length) r.wrk = { ...summarize(w), runs: w };
      if (t.proc.exited()) r.notRun = `exited during the load: ${lastLines(t.proc.out())}`;
      r.rssAfterLoadMiB = await groupRssMiB(t.proc.pid);
      const before = logBefore.get(t.def.key) ?? { bytes: 0, lines: 0 };
      r.logDuringLoad = { bytes: t.proc.stdoutBytes() - before.bytes, lines: t.proc.stdoutLines() - before.lines };
    }
  } finally {
    placement?.unpinSelf();
    for (const t of running) await stop(t.proc);
  }

  const rawRps = results.get('raw')?.load?.rps;
  const rawCpu = results.get('raw')?.load?.cpuPerAnswerUs;
  const prismRps = results.get('prism-silent')?.load?.rps;
  const rawWrk = results.get('raw')?.wrk;
  for (const r of results.values()) {
    if (r.wrk && rawWrk) {
      r.wrkOverRaw = round2(r.wrk.rps / rawWrk.rps);
      if (rawWrk.cpuPerAnswerUs && r.wrk.cpuPerAnswerUs)
        r.wrkCpuOverRaw = round2(rawWrk.cpuPerAnswerUs / r.wrk.cpuPerAnswerUs);
    }
    if (!r.load) continue;
    if (rawRps) r.overRaw = round2(r.load.rps / rawRps);
    if (prismRps) r.overPrismSilent = round2(r.load.rps / prismRps);
    if (rawCpu && r.load.cpuPerAnswerUs) r.cpuOverRaw = round2(rawCpu / r.load.cpuPerAnswerUs);
  }
  const all = [...results.values()];
  const stub = results.get('stub');
  const rawLoadgen = results.get('raw')?.load?.loadgenCpuPercent;
  /** What the req/s ratio cannot tell: the CPU per answer over raw's, and whether the generator was the limit. */
  const cpuNote = (r: TargetResult) =>
    r.cpuOverRaw === undefined
      ? ''
      : `; server CPU per answer: raw's ${ratio(r.cpuOverRaw)} of it, the load generator at ${fmt(rawLoadgen ?? 0)} % of its core under raw`;
  // With wrk as well, the target is met only where both generators find it so.
  const wrkNote =
    stub?.wrkOverRaw === undefined
      ? ''
      : `; with wrk: ${ratio(stub.wrkOverRaw)} (${fmt(stub.wrk?.rps ?? 0)} vs ${fmt(rawWrk?.rps ?? 0)} req/s)`;
  const checks: Check[] = [
    {
      name: 'the stub as `npm start` runs it, req/s',
      target: '≥ 0.8× raw',
      measured:
        stub?.overRaw === undefined
          ? undefined
          : `${ratio(stub.overRaw)} (${fmt(stub.load?.rps ?? 0)} vs ${fmt(rawRps ?? 0)} req/s${cpuNote(stub)})${wrkNote}`,
      met:
        stub?.overRaw === undefined
          ? undefined
          : stub.overRaw >= 0.8 && (stub.wrkOverRaw === undefined || stub.wrkOverRaw >= 0.8),
    },
    {
      name: 'the stub as `npm start` runs it, req/s',
      target: '≥ 10× Prism (silent)',
      measured:
        stub?.overPrismSilent === undefined
          ? undefined
          : `${ratio(stub.overPrismSilent)} (${fmt(stub.load?.rps ?? 0)} vs ${fmt(prismRps ?? 0)} req/s)`,
      met: stub?.overPrismSilent === undefined ? undefined : stub.overPrismSilent >= 10,
    },
    {
      name: `the stub as \`npm start\` runs it, p99 at ${o.connections} connections`,
      target: '≤ 5 ms',
      measured: stub?.load ? `${fmt(stub.load.p99, 2)} ms` : undefined,
      met: stub?.load ? stub.load.p99 <= 5 : undefined,
    },
  ];

  const bodyNote = (r: TargetResult) =>
    r.identical ? 'identical' : r.identical === false ? `**differs**: ${r.difference}` : '—';
  const verify = table(
    ['target', 'version', 'status', 'content-type', 'content-length', 'body bytes', 'same bytes as the stub'],
    all
      .filter((r) => !r.notRun || r.bodyBytes !== undefined)
      .map((r) => [
        r.label,
        r.version,
        r.status ?? '—',
        r.contentType ?? '—',
        r.contentLength ?? '—',
        r.bodyBytes ?? '—',
        bodyNote(r),
      ]),
  );
  const perf = table(
    [
      'target',
      'req/s',
      'p50 ms',
      'p99 ms',
      '× raw',
      '× Prism (silent)',
      'server CPU per answer',
      'load generator CPU',
      'start-up to first answer',
      'RSS after load',
      'stdout during load',
      'errors',
    ],
    all.map((r) =>
      r.load && !r.notRun
        ? [
            `${r.label}${r.identical ? '' : ' (≠ bytes)'}`,
            fmt(r.load.rps),
            fmt(r.load.p50, 2),
            fmt(r.load.p99, 2),
            ratio(r.overRaw ?? NaN),
            ratio(r.overPrismSilent ?? NaN),
            r.load.cpuPerAnswerUs === undefined
              ? '—'
              : `${fmt(r.load.cpuPerAnswerUs, 1)} µs${r.cpuOverRaw !== undefined && r.key !== 'raw' ? ` (${ratio(r.cpuOverRaw)} raw's)` : ''}`,
            `${fmt(r.load.loadgenCpuPercent)} %`,
            `${fmt(r.startupMs ?? 0)} ms`,
            `${fmt(r.rssAfterLoadMiB ?? 0, 1)} MiB`,
            r.logDuringLoad?.bytes
              ? `${fmt(r.logDuringLoad.lines)} lines, ${fmt(r.logDuringLoad.bytes / 2 ** 20, 1)} MiB`
              : 'none',
            r.load.errors + r.load.non2xx,
          ]
        : [r.label, `not run: ${r.notRun ?? 'no figures'}`, '', '', '', '', '', '', '', '', '', ''],
    ),
  );
  const withWrk = all.filter((r) => r.wrk && !r.notRun);
  const wrkTable =
    withWrk.length === 0
      ? `With wrk: not run (${wrk === undefined ? (o.skip.includes('wrk') ? 'left out, --skip wrk' : 'wrk is not installed: `apt-get install wrk`') : 'no target ran'}).`
      : [
          `With wrk ${wrk} (C, one thread${placement ? ', on CPU 0' : ''}, ${o.connections} connections, ${o.rounds} interleaved rounds of ${o.seconds} s; medians; latencies from its histogram): a generator that costs a fraction of autocannon's per request, so that these targets, not the generator, are the limit.`,
          '',
          table(
            ['target', 'req/s', 'p50 ms', 'p99 ms', '× raw', 'server CPU per answer', 'errors'],
            withWrk.map((r) => {
              const w = r.wrk as NonNullable<TargetResult['wrk']>;
              return [
                r.label,
                fmt(w.rps),
                fmt(w.p50, 2),
                fmt(w.p99, 2),
                ratio(r.wrkOverRaw ?? NaN),
                w.cpuPerAnswerUs === undefined
                  ? '—'
                  : `${fmt(w.cpuPerAnswerUs, 1)} µs${r.wrkCpuOverRaw !== undefined && r.key !== 'raw' ? ` (${ratio(r.wrkCpuOverRaw)} raw's)` : ''}`,
                w.errors + w.non2xx,
              ];
            }),
          ),
        ].join('\n');
  const notes = all.map((r) => `- **${r.label}** ${r.version ? `(${r.version})` : ''}: ${r.how}.`).join('\n');
  const identical = all.filter((r) => r.identical).map((r) => r.label);
  const markdown = [
    `Every target answers \`GET ${o.deskPath}\` with \`Host: ${o.host}\` (the stub builds absolute urls from the Host, so one Host for all): the stub's ${fmt(want().length)}-byte desk list. Compared byte for byte before the load: ${identical.length} of ${all.filter((r) => r.bodyBytes !== undefined).length} identical.`,
    '',
    verify,
    '',
    perf,
    '',
    `Server CPU per answer: the CPU time the server's process group used during its rounds over the answers it gave (the median of its rounds), and in brackets raw's over it: the req/s ratio to raw where the server's core is the limit. Load generator CPU: autocannon's one core during the load (the median of the rounds); where it nears 100 %, the req/s of the fastest targets are the generator's limit, and their ratio to raw reads its noise.`,
    '',
    wrkTable,
    '',
    'How each target runs:',
    '',
    notes,
  ].join('\n');
  for (const c of checks) o.log(`${checkLine(c)}\n`);
  const where = placement
    ? `the load generator on CPU 0, every server on CPU${placement.serverCpus.includes('-') ? 's' : ''} ${placement.serverCpus} (taskset)`
    : 'unpinned (no taskset, or a single CPU)';
  return { host: o.host, path: o.deskPath, bodyBytes: want().length, placement: where, targets: all, checks, markdown };

  function want(): Buffer {
    return ctx?.body ?? Buffer.alloc(0);
  }
}
