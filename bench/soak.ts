// `npm run soak`: 60 s at 100 connections over every endpoint of the bundled stub (every
// collection, several pages, every desk, cached and computed answers alike). Passes when there
// are 0 errors, 0 non-2xx answers, and RSS grows by at most 10% between the first and the last
// 10 s. Writes the figures under bench/results/. Stops every process it starts.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cliCommand } from './lib/cli.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { duration: { type: 'string', default: '60' }, connections: { type: 'string', default: '100' } },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const WINDOW = Math.min(10, Math.max(1, Math.floor(DURATION / 3)));

let child: ChildProcess | undefined;
process.on('exit', () => child?.kill('SIGKILL'));

async function rssMiB(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const b = spawn(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
    b.once('exit', (c) => (c === 0 ? resolve() : reject(new Error('build failed'))));
  });
  const port = 4900 + Math.floor(Math.random() * 90);
  const base = `http://127.0.0.1:${port}`;
  // As `npm start` runs it (package.json's start script), quiet, pages of 10.
  const start = cliCommand(ROOT, 'start').args;
  child = spawn(process.execPath, [...start, '--quiet', '--page-size', '10', '--port', String(port)], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/v1/desk`)).ok) break;
    } catch {
      if (i > 400) throw new Error('the stub did not start');
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  // The collections: the spec's GET paths without a path parameter, from the spec the stub serves.
  const specAnswer = await fetch(`${base}/openapi.json`);
  if (!specAnswer.ok) throw new Error(`/openapi.json answered ${specAnswer.status}`);
  const spec = (await specAnswer.json()) as { paths?: Record<string, { get?: unknown }> };
  const index = {
    collections: Object.entries(spec.paths ?? {})
      .filter(([p, item]) => !p.includes('{') && item.get)
      .map(([p]) => ({ path: p })),
  };
  const desks = (await (await fetch(`${base}/api/v1/desk?page=last`)).json()) as { count: number };
  const paths: string[] = [];
  for (const c of index.collections) paths.push(`${c.path}?format=api`, c.path);
  for (let p = 1; p <= Math.ceil(desks.count / 10); p++) paths.push(`/api/v1/desk?format=api&page=${p}`);
  for (let pk = 1; pk <= 48; pk++) paths.push(`/api/v1/desk/${pk}?format=api`);
  const valid = new Set<string>();
  // As the load generator sends them: a redirect (the spec's `/`) is not followed, so not a 200.
  for (const p of paths) if ((await fetch(`${base}${p}`, { redirect: 'manual' })).status === 200) valid.add(p);
  const targets = [...valid];
  let n = 0;
  const requests: autocannon.Request[] = [
    {
      setupRequest: (req) => {
        n++;
        // One request in four has a url never seen before: the computed path, not the cache.
        const p = targets[n % targets.length] ?? '/';
        return { ...req, path: n % 4 === 0 ? `${p}${p.includes('?') ? '&' : '?'}soak=${n}` : p };
      },
    },
  ];
  process.stdout.write(
    `Soak: ${DURATION} s, ${CONNECTIONS} connections, ${targets.length} endpoints (one request in four uncached)\n`,
  );
  const samples: number[] = [];
  const sampler = setInterval(async () => samples.push(await rssMiB(child?.pid)), 1000);
  const result = await autocannon({ url: base, connections: CONNECTIONS, duration: DURATION, requests });
  clearInterval(sampler);
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const first = avg(samples.slice(0, WINDOW));
  const last = avg(samples.slice(-WINDOW));
  const growth = first > 0 ? (last - first) / first : 0;
  const out = {
    date: new Date().toISOString(),
    durationS: DURATION,
    connections: CONNECTIONS,
    endpoints: targets.length,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p99ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    rssFirstWindowMiB: Math.round(first * 10) / 10,
    rssLastWindowMiB: Math.round(last * 10) / 10,
    rssGrowth: Math.round(growth * 1000) / 10,
  };
  const ok = out.errors === 0 && out.timeouts === 0 && out.non2xx === 0 && growth <= 0.1;
  process.stdout.write(
    `| requests | req/s | p99 | errors | non-2xx | RSS first ${WINDOW} s | RSS last ${WINDOW} s | growth |\n|---|---|---|---|---|---|---|---|\n` +
      `| ${out.requests} | ${out.rps} | ${out.p99ms} ms | ${out.errors + out.timeouts} | ${out.non2xx} | ${out.rssFirstWindowMiB} MiB | ${out.rssLastWindowMiB} MiB | ${out.rssGrowth}% |\n` +
      `${ok ? 'PASS' : 'FAIL'}: 0 errors, 0 non-2xx, RSS growth at most 10%\n`,
  );
  await writeFile(
    path.join(ROOT, 'bench', 'results', `soak-${out.date.replace(/[:.]/g, '-')}.json`),
    `${JSON.stringify(out, null, 2)}\n`,
  );
  child.kill('SIGTERM');
  return ok ? 0 : 1;
}

process.exitCode = await main();
