// `npm run bench`: the stub side by side with its peers, every one answering the same bytes (the
// stub's desk list, verified byte for byte before anything is measured), loaded in interleaved
// rounds (A B C … A B C …) so that drift on a shared machine hits all alike; then the scale checks,
// each printed against its target. Markdown on stdout (progress on stderr), the figures as JSON in
// bench/results/<date>.json. Peers live in bench/peers (installed on first use, never part of the
// project's install). Every process it starts, it stops, also on Ctrl-C and on errors.
//
//   npm run bench [-- --quick] [--only peers|scale|worst] [--duration S] [--rounds N] [--connections N]
//                 [--skip key,key] [--scale-count N] [--crawl-count N] [--collections N]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cliCommand } from './lib/cli.js';
import { installPeers, type PeersResult, runPeers } from './lib/peers.js';
import { installExitHandlers, lastLines, removeOnExit, runToEnd, stopAllNow } from './lib/proc.js';
import { type Check, checksTable, fmt } from './lib/report.js';
import { fixture, runScale, type ScaleResult } from './lib/scale.js';
import { TARGETS } from './lib/targets.js';
import { runWorst, type WorstResult } from './lib/worst.js';

const ROOT = path.resolve(import.meta.dirname, '..');
// A loopback name: the stub answers loopback hosts only unless told (--allowed-hosts), as `npm start` runs it.
const HOST = 'localhost';
const DESK = '/api/v1/desk?format=api';

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string', default: '10' },
      skip: { type: 'string', default: '' },
      'scale-count': { type: 'string', default: '1000000' },
      'crawl-count': { type: 'string', default: '100000' },
      'worst-count': { type: 'string', default: '1000000' },
      collections: { type: 'string', default: '2000' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      [
        'npm run bench -- [options]',
        '  --quick              2 rounds of 2 s, shorter warm-up, no item-url crawl',
        '  --only peers|scale|worst   one section only',
        '  --duration S         seconds per target per round (default 4)',
        '  --rounds N           interleaved rounds, and starts per start-up figure (default 3)',
        '  --connections N      autocannon connections (default 10)',
        `  --skip a,b           leave targets out (${TARGETS.map((t) => t.key).join(', ')}), or wrk's second pass (wrk)`,
        '  --scale-count N      desks of the large fixture (default 1000000)',
        '  --crawl-count N      desks the checker crawls (default 100000)',
        '  --worst-count N      desks behind the worst inputs of filters (default 1000000)',
        '  --collections N      collections of the generated spec (default 2000)',
        '',
      ].join('\n'),
    );
    process.exit(0);
  }
  const num = (v: string | undefined, d: number, what: string) => {
    const n = v === undefined ? d : Number(v);
    if (!Number.isFinite(n) || n <= 0) {
      process.stderr.write(`bench: --${what} must be a positive number\n`);
      process.exit(2);
    }
    return n;
  };
  if (values.only !== undefined && !['peers', 'scale', 'worst'].includes(values.only)) {
    process.stderr.write('bench: --only takes peers, scale or worst\n');
    process.exit(2);
  }
  return {
    quick: values.quick,
    only: values.only as 'peers' | 'scale' | 'worst' | undefined,
    seconds: num(values.duration, values.quick ? 2 : 4, 'duration'),
    rounds: Math.round(num(values.rounds, values.quick ? 2 : 3, 'rounds')),
    warmSeconds: values.quick ? 0.5 : 1,
    connections: Math.round(num(values.connections, 10, 'connections')),
    skip: values.skip.split(',').filter(Boolean),
    scaleCount: Math.round(num(values['scale-count'], 1_000_000, 'scale-count')),
    crawlCount: Math.round(num(values['crawl-count'], 100_000, 'crawl-count')),
    worstCount: Math.round(num(values['worst-count'], 1_000_000, 'worst-count')),
    collections: Math.round(num(values.collections, 2000, 'collections')),
  };
}

let lastEndedLine = true;
/** Progress on stderr: lines starting with \r rewrite the current line on a terminal; elsewhere each is a line of its own. */
const log = (s: string) => {
  if (process.stderr.isTTY) {
    process.stderr.write(s);
    return;
  }
  const text = s.replace(/\r(\x1b\[2K)?/g, '').replace(/ +(\n|$)/g, '$1');
  if (!text) return;
  const fresh = s.startsWith('\r');
  process.stderr.write(`${fresh && !lastEndedLine ? '\n' : ''}${text}`);
  lastEndedLine = text.endsWith('\n');
};
const version = (file: string) => {
  try {
    return (JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
};

function machine() {
  const cpu = cpus()[0]?.model?.trim() ?? '?';
  let os = `Linux ${release()}`;
  try {
    os = /PRETTY_NAME="([^"]+)"/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? os;
  } catch {
    // not Linux
  }
  let java = 'none';
  try {
    java =
      /version "([^"]+)"/.exec(execFileSync('sh', ['-c', 'java -version 2>&1'], { encoding: 'utf8' }))?.[1] ?? 'none';
  } catch {
    // no Java: WireMock is reported as not run
  }
  return {
    cpu,
    cores: availableParallelism(),
    memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os,
    kernel: release(),
    java,
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** `npm run build` (what `npm start` runs first); a failed build is reported, not fatal, when a CLI is there. */
async function build(): Promise<{ ok: boolean; note: string }> {
  log('building: npm run build…\n');
  const r = await runToEnd('build', 'npm', ['run', '-s', 'build'], { cwd: ROOT, timeoutMs: 300_000 });
  if (r.code === 0) return { ok: true, note: 'npm run build: done' };
  const note = `npm run build failed (${lastLines(r.out, 2)}): measuring the CLI already in dist/`;
  log(`WARNING: ${note}\n`);
  return { ok: false, note };
}

/**
 * Where the servers' stdout goes: a folder in memory (tmpfs, /dev/shm on Linux) where there is
 * one. In a file on disk, the tens of megabytes a logging server writes in its rounds were
 * written back to the disk by the kernel's threads seconds later, in another server's rounds:
 * measured, the quiet stub loaded right after the logging one answered at 0.74× raw in a run
 * with its log on disk, 0.94× with it in memory, its rounds as steady as raw's.
 */
async function logFolder(work: string): Promise<{ dir: string; where: string }> {
  if (process.platform === 'linux' && existsSync('/dev/shm')) {
    try {
      const dir = await mkdtemp('/dev/shm/workplace-stub-bench-logs-');
      removeOnExit(dir);
      return { dir, where: 'a file in memory (tmpfs, /dev/shm)' };
    } catch {
      // not writable: the work folder
    }
  }
  return { dir: work, where: 'a file in the temporary folder' };
}

async function main(): Promise<void> {
  installExitHandlers();
  const o = options();
  const started = new Date();
  const m = machine();
  const built = await build();
  const work = await mkdtemp(path.join(tmpdir(), 'workplace-stub-bench-'));
  removeOnExit(work);
  const logs = await logFolder(work);
  let peers: PeersResult | undefined;
  let scale: ScaleResult | undefined;
  let peersError: string | undefined;
  let scaleError: string | undefined;
  let worst: WorstResult | undefined;
  let worstError: string | undefined;
  let start: string[] = [];
  let check: string[] = [];
  try {
    start = cliCommand(ROOT, 'start').args;
    check = cliCommand(ROOT, 'check').args;
  } catch (e) {
    peersError = scaleError = (e as Error).message;
    log(`cannot run the stub: ${peersError}\n`);
  }
  try {
    if ((o.only === undefined || o.only === 'peers') && !peersError) {
      const problem = await installPeers(ROOT, log);
      if (problem) log(`peers in bench/peers not installed: ${problem}\n`);
      try {
        peers = await runPeers(
          {
            root: ROOT,
            work,
            logs: logs.dir,
            host: HOST,
            deskPath: DESK,
            start,
            seconds: o.seconds,
            rounds: o.rounds,
            warmSeconds: o.warmSeconds,
            connections: o.connections,
            skip: o.skip,
            log,
          },
          problem,
        );
      } catch (e) {
        peersError = (e as Error).message;
        log(`side-by-side section failed: ${peersError}\n`);
      }
    }
    if ((o.only === undefined || o.only === 'scale') && !scaleError) {
      scale = await runScale({
        root: ROOT,
        work,
        host: HOST,
        deskPath: DESK,
        start,
        check,
        seconds: o.seconds,
        rounds: o.rounds,
        connections: o.connections,
        count: o.scaleCount,
        crawlCount: o.crawlCount,
        crawlItemUrls: !o.quick,
        collections: o.collections,
        log,
      });
    }
    if (o.only === undefined || o.only === 'worst') {
      try {
        const desksDir = await fixture({ root: ROOT, log }, o.worstCount);
        worst = await runWorst({ root: ROOT, desksDir, count: o.worstCount, log });
      } catch (e) {
        worstError = (e as Error).message;
        log(`worst-input section failed: ${worstError}\n`);
      }
    }
  } finally {
    stopAllNow();
    await rm(work, { recursive: true, force: true });
    if (logs.dir !== work) await rm(logs.dir, { recursive: true, force: true });
  }

  const finished = new Date();
  const date = started.toISOString().slice(0, 10);
  const checks: Check[] = [...(peers?.checks ?? []), ...(scale?.checks ?? []), ...(worst?.checks ?? [])];
  const md: string[] = [
    `## npm run bench, ${date}`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB RAM, ${m.os}, Node ${m.node}${m.java !== 'none' ? `, Java ${m.java}` : ''}; load average ${m.loadAverageAtStart.join(' / ')} at the start (a shared machine: every ratio below comes from the same run).`,
    `Load: autocannon ${version('node_modules/autocannon/package.json')}, ${o.connections} connections, ${o.rounds} interleaved round${o.rounds === 1 ? '' : 's'} of ${o.seconds} s per target after a ${o.warmSeconds} s warm-up each; medians of the rounds; latencies from every response, in ms. Host \`${HOST}\` on every request; the other servers paused (SIGSTOP) during each one's load; every server's stdout to ${logs.where}.${peers ? ` CPUs: ${peers.placement}.` : ''}${built.ok ? '' : ` **${built.note}**`}`,
    `The stub: \`npm start\` is \`node ${start.join(' ')}\` (package.json), run by node directly with \`--port\` added; the checker: \`node ${check.join(' ')}\`.`,
    '',
  ];
  if (o.only === undefined || o.only === 'peers') {
    md.push('### Side by side: the same bytes from every server', '');
    md.push(peers ? peers.markdown : `Not run: ${peersError ?? '?'}`, '');
  }
  if (o.only === undefined || o.only === 'scale')
    md.push('### Scale', '', scale ? scale.markdown : `Not run: ${scaleError ?? '?'}`, '');
  if (o.only === undefined || o.only === 'worst')
    md.push('### Worst inputs', '', worst ? worst.markdown : `Not run: ${worstError ?? '?'}`, '');
  md.push('### Targets', '', checks.length ? checksTable(checks) : 'None measured.', '');
  const met = checks.filter((c) => c.met === true).length;
  const notMet = checks.filter((c) => c.met === false).length;
  md.push(
    `${met} met, ${notMet} NOT met, ${checks.length - met - notMet} not measured. Run took ${fmt((finished.getTime() - started.getTime()) / 1000)} s; load average ${loadavg()
      .map((l) => Math.round(l * 100) / 100)
      .join(' / ')} at the end.`,
    '',
  );
  process.stdout.write(`${md.join('\n')}\n`);

  const out = {
    date: started.toISOString(),
    durationS: Math.round((finished.getTime() - started.getTime()) / 1000),
    machine: { ...m, loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100) },
    build: built,
    options: o,
    host: HOST,
    path: DESK,
    versions: { stub: version('package.json'), autocannon: version('node_modules/autocannon/package.json') },
    peers: peers ? { bodyBytes: peers.bodyBytes, targets: peers.targets } : { error: peersError ?? 'not run' },
    commands: { start: start.join(' '), check: check.join(' ') },
    scale: scale?.figures ?? { error: scaleError ?? 'not run' },
    worst: worst?.figures ?? { error: worstError ?? 'not run' },
    checks,
  };
  const suffix = `${o.only ? `-${o.only}` : ''}${o.quick ? '-quick' : ''}`;
  await mkdir(path.join(ROOT, 'bench', 'results'), { recursive: true });
  const file = path.join(ROOT, 'bench', 'results', `${date}${suffix}.json`);
  await writeFile(file, `${JSON.stringify(out, null, 2)}\n`);
  log(`figures written to ${path.relative(ROOT, file)}\n`);
}

try {
  await main();
} catch (e) {
  stopAllNow();
  process.stderr.write(`bench: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 1;
}
