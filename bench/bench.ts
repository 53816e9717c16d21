// `npm run bench`: the stub side by side with `prism mock` on the same YAML and a raw node:http
// server answering the stub's own bytes (the practical limit), interleaved A B C rounds so that
// drift on a shared machine hits all alike; then the scale checks. Figures are ratios against
// peers measured in the same run. Every process it starts, it stops.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { runCheck } from '../src/contract/checker.js';
import { loadContract } from '../src/contract/load.js';
import { DEFAULTS } from '../src/config.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    quick: { type: 'boolean', default: false },
    'no-scale': { type: 'boolean', default: false },
    'scale-count': { type: 'string', default: '1000000' },
  },
});
const DURATION = values.quick ? 2 : Number(values.duration);
const ROUNDS = values.quick ? 2 : Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const children = new Set<ChildProcess>();

function stopAll(): void {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
}
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

let nextPort = 4600 + Math.floor(Math.random() * 300);
interface Proc {
  name: string;
  child: ChildProcess;
  base: string;
  startupMs: number;
}

/** Starts a server and measures the time from spawn to its first 200 answer on `readyPath`. */
async function start(name: string, args: string[], readyPath: string): Promise<Proc> {
  const port = nextPort++;
  const started = performance.now();
  const child = spawn(process.execPath, args.map((a) => a.replace('{port}', String(port))), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let err = '';
  child.stderr?.on('data', (d) => (err += d));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${err}`);
    try {
      const res = await fetch(`${base}${readyPath}`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error(`${name} did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return { name, child, base, startupMs: Math.round(performance.now() - started) };
}

async function rssMiB(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Loads `url`; with `unique`, each request adds `&n=<i>` so that no answer can come from a cache. */
async function load(url: string, seconds: number, unique = false): Promise<Load> {
  let i = 0;
  const u = new URL(url);
  const requests: autocannon.Request[] | undefined = unique
    ? [{ setupRequest: (req) => ({ ...req, path: `${u.pathname}${u.search}${u.search ? '&' : '?'}n=${i++}` }) }]
    : undefined;
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...(requests ? { requests } : {}) });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

// As `npm start` and the bin run it: V8's young generation capped (see README, Performance).
const cli = ['--max-semi-space-size=2', 'dist/cli.js', 'serve', '--quiet', '--no-cors', '--port', '{port}'];
const prismJs = path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');

async function main(): Promise<void> {
  // What `npm start` runs: the bundled CLI.
  await run(['scripts/build.mjs']);
  const largeDir = path.join(tmpdir(), 'workplace-stub-bench-100k');
  if (!existsSync(path.join(largeDir, 'desk.json'))) await run(['--import', 'tsx', 'scripts/large-fixture.ts', '--count', '100000', '--out', largeDir]);

  process.stdout.write(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);
  process.stdout.write(`Load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per run, ${ROUNDS} interleaved rounds\n\n`);

  const stub = await start('stub', cli, '/api/v1/desk?format=api');
  const stubLarge = await start('stub (100k desks)', [...cli, '--fixtures', largeDir], '/api/v1/desk?format=api');
  const prism = await start('prism mock', [prismJs, 'mock', DEFAULTS.specFile, '-h', '127.0.0.1', '-p', '{port}'], '/api/v1/desk');

  const scenarios = [
    { name: 'desk list', stub: `${stub.base}/api/v1/desk?format=api`, prism: `${prism.base}/api/v1/desk?format=api`, unique: false },
    { name: 'desk list, every url new (no cache)', stub: `${stub.base}/api/v1/desk?format=api`, prism: `${prism.base}/api/v1/desk?format=api`, unique: true },
    { name: 'desk detail', stub: `${stub.base}/api/v1/desk/1?format=api`, prism: `${prism.base}/api/v1/desk/1?format=api`, unique: false },
    { name: 'page 2 of 100k desks', stub: `${stubLarge.base}/api/v1/desk?format=api&page=2`, prism: `${prism.base}/api/v1/desk?format=api&page=2`, unique: false },
  ];
  // The raw server answers each scenario with the stub's own bytes for it.
  const bodies: Record<string, string> = {};
  for (const s of scenarios) bodies[s.name] = await (await fetch(s.stub)).text();
  const rawDir = path.join(tmpdir(), `workplace-stub-bench-raw-${process.pid}`);
  await mkdir(rawDir, { recursive: true });
  const raws: Record<string, Proc> = {};
  for (const [i, s] of scenarios.entries()) {
    const file = path.join(rawDir, `${i}.json`);
    await writeFile(file, bodies[s.name] ?? '');
    raws[s.name] = await start(`raw node:http (${s.name})`, ['bench/raw-server.mjs', '{port}', file], '/');
  }

  const results: Record<string, Record<string, Load[]>> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const s of scenarios) {
      const targets: [string, string][] = [
        ['stub', s.stub],
        ['prism', s.prism],
        ['raw', `${raws[s.name]?.base}/`],
      ];
      for (const [target, url] of targets) {
        process.stderr.write(`\rround ${round}/${ROUNDS}: ${s.name}, ${target}          `);
        const r = await load(url, DURATION, s.unique && target !== 'raw');
        ((results[s.name] ??= {})[target] ??= []).push(r);
      }
    }
  }
  process.stderr.write('\r\x1b[2K');

  const rss = { stub: await rssMiB(stub.child.pid), 'stub (100k desks)': await rssMiB(stubLarge.child.pid), prism: await rssMiB(prism.child.pid) };
  const summary = scenarios.map((s) => {
    const agg = (t: string) => {
      const runs = results[s.name]?.[t] ?? [];
      return { rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)), errors: runs.reduce((n, r) => n + r.errors + r.non2xx, 0) };
    };
    const [st, pr, raw] = [agg('stub'), agg('prism'), agg('raw')];
    return { scenario: s.name, stub: st, prism: pr, raw, stubOverPrism: round2(st.rps / pr.rps), stubOverRaw: round2(st.rps / raw.rps) };
  });

  const lines = [
    '| scenario | stub req/s | prism req/s | raw req/s | stub/prism | stub/raw | stub p50/p99 ms | prism p50/p99 ms |',
    '|---|---|---|---|---|---|---|---|',
    ...summary.map(
      (s) =>
        `| ${s.scenario} | ${s.stub.rps} | ${s.prism.rps} | ${s.raw.rps} | **${s.stubOverPrism}×** | **${s.stubOverRaw}×** | ${s.stub.p50} / ${s.stub.p99} | ${s.prism.p50} / ${s.prism.p99} |`,
    ),
    '',
    '| process | start-up to first answer | RSS after load |',
    '|---|---|---|',
    `| stub (bundled fixtures) | ${stub.startupMs} ms | ${rss.stub} MiB |`,
    `| stub (100k desks) | ${stubLarge.startupMs} ms | ${rss['stub (100k desks)']} MiB |`,
    `| prism mock | ${prism.startupMs} ms | ${rss.prism} MiB |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const p of [stub, prism, ...Object.values(raws)]) p.child.kill('SIGTERM');

  // The checker crawling 100,000 items (1,000 pages of 100) against the stub, in this process.
  const contract = await loadContract(DEFAULTS.specFile);
  const crawlStarted = performance.now();
  const crawl = await runCheck(contract, { baseUrl: stubLarge.base, headers: {}, timeoutMs: 10_000, concurrency: 8, maxPages: 10_000, only: ['desk'], itemUrls: 0 });
  const crawlMs = Math.round(performance.now() - crawlStarted);
  const fullStarted = performance.now();
  const full = await runCheck(contract, { baseUrl: stubLarge.base, headers: {}, timeoutMs: 10_000, concurrency: 8, maxPages: 10_000, only: ['desk'] });
  const fullMs = Math.round(performance.now() - fullStarted);
  const checker = {
    items: crawl.endpoints[0]?.items,
    pages: crawl.endpoints[0]?.pages,
    crawlAndValidateMs: crawlMs,
    violations: crawl.violations.length,
    withEveryItemUrlMs: fullMs,
    requestsWithItemUrls: full.requests,
    violationsWithItemUrls: full.violations.length,
  };
  process.stdout.write(
    `\nChecker: crawled and validated ${checker.items} desks on ${checker.pages} pages in ${crawlMs} ms (${checker.violations} violations); ` +
      `with every item url fetched too: ${full.requests} requests in ${fullMs} ms (${checker.violationsWithItemUrls} violations)\n`,
  );
  stubLarge.child.kill('SIGTERM');

  let scale: Record<string, unknown> | undefined;
  if (!values['no-scale']) scale = await scaleCheck(Number(values['scale-count']));

  const out = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    load: { connections: CONNECTIONS, durationS: DURATION, rounds: ROUNDS },
    summary,
    startup: { stub: stub.startupMs, stubLarge: stubLarge.startupMs, prism: prism.startupMs },
    rssMiB: rss,
    checker,
    scale,
    raw: results,
  };
  const file = path.join(ROOT, 'bench', 'results', `bench-${out.date.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(out, null, 2)}\n`);
  await writeFile(path.join(ROOT, 'bench', 'results', 'latest.json'), `${JSON.stringify(out, null, 2)}\n`);
  process.stdout.write(`\nFigures written to ${path.relative(ROOT, file)}\n`);
}

async function scaleCheck(count: number): Promise<Record<string, unknown>> {
  const dir = path.join(tmpdir(), `workplace-stub-bench-${count}`);
  if (!existsSync(path.join(dir, 'desk.json'))) await run(['--import', 'tsx', 'scripts/large-fixture.ts', '--count', String(count), '--out', dir]);
  const big = await start(`stub (${count} desks)`, [...cli, '--fixtures', dir], '/api/v1/desk?format=api');
  const rssAfterStart = await rssMiB(big.child.pid);
  const lastPage = Math.ceil(count / 100);
  const far = Math.min(10_000, lastPage);
  const page1: Load[] = [];
  const pageFar: Load[] = [];
  // Every url new, so each answer is computed: the cost of a page, not of the cache.
  for (let i = 0; i < ROUNDS; i++) {
    page1.push(await load(`${big.base}/api/v1/desk?format=api`, Math.max(2, DURATION / 2), true));
    pageFar.push(await load(`${big.base}/api/v1/desk?format=api&page=${far}`, Math.max(2, DURATION / 2), true));
  }
  const rps1 = median(page1.map((r) => r.rps));
  const rpsFar = median(pageFar.map((r) => r.rps));
  const result = {
    desks: count,
    startupMs: big.startupMs,
    rssAfterStartMiB: rssAfterStart,
    rssAfterLoadMiB: await rssMiB(big.child.pid),
    page1RpsUncached: rps1,
    [`page${far}RpsUncached`]: rpsFar,
    farPageTimeOverPage1: round2(rps1 / rpsFar),
  };
  process.stdout.write(
    `\nScale: ${count} desks: start-up ${big.startupMs} ms, RSS ${rssAfterStart} MiB after start-up; ` +
      `page 1 ${rps1} req/s, page ${far} ${rpsFar} req/s (every url new, nothing cached): page ${far} takes ${result.farPageTimeOverPage1}× the time of page 1\n`,
  );
  big.child.kill('SIGTERM');
  return result;
}

function run(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    children.add(c);
    c.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

try {
  await main();
} finally {
  stopAll();
}
