// The redesign's own lines (issue #29, "the redesign removes more lines than it adds"), from git:
// `npx tsx scripts/redesign-lines.ts` in a clone with its history. Every commit since the issue was
// filed (BASE) that changes src/ (generated code aside) counts as the redesign's, except those that
// built another issue's feature or fix, named below with their issue. A commit left unnamed counts
// as the redesign's, so an omission can only make the redesign look larger; so does what merges
// changed beyond their branches' commits (conflicts resolved). The Prettier commit re-wraps the same
// code at 120 columns: it is counted apart, and the baseline is also shown formatted.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BASE = '7e758ff';
const FORMAT = '40241e4';

const OTHER_ISSUES: Record<string, number> = {
  // #30 hardening: linear parsers, limits, loopback defaults, the recorder's staging, 2^53 pks
  '14d3a60': 30, // Read bodies in one pass: UTF-8 errors, JSON, multipart headers
  f910730: 30, // Hold checker, proxy and recorder to the loader's depth and size limits
  ea898ac: 30, // Keep integers past 2^53 as sent; compare pks as their text
  d973dd7: 30, // Record into a staging folder; never write what the stub refuses
  '695246c': 30, // Under a prefixed base, paths a front server reroutes are off the base
  '4a02b78': 30, // Redact base64 and base64url of a secret at every byte alignment
  '8908e54': 30, // Give the validating proxy the stub's default CORS policy
  '4603102': 30, // Loopback hosts and origins only unless told; cross-site writes refused
  '9b81a3a': 30, // Bench: a worst-input section; ordering and search terms count once
  '242be04': 30, // Raw answers never write a header value with a control byte
  '2d7392f': 30, // --watch: follows a replaced folder, ignores files it reads not, settles
  '02b43e9': 30, // Journal kept as bytes in two segments; types written whole
  a6b08ca: 30, // Forms past 1,000 fields, latin-1 forms, int() and Decimal() as Python
  '5e47ffe': 30, // --watch gives a replaced state's memory back
  // #31 fidelity: the deployment's authentication, viewsets, sessions, CSRF, profile
  c7a8082: 31, // Authenticate as the spec's security schemes say, negotiate its renderers
  '651d839': 31, // Bundled spec: the deployment's viewsets, authentication and pagination
  c638b9d: 31, // Fidelity: sessions, CSRF, redirects, the deployment's viewset quirks
  f6f61d8: 31, // Deployment quirks declared; held_today typed as a computed field
  '7ebbbd9': 31, // Tests: foundation, cli, designer, etc. assert the deployment profile
  '70c6387': 31, // Checker tests: probes and integration on the deployment profile
  '4251bab': 31, // Checker accepts */* after JSON, as on branch tests-wt-contract
  b6b0323: 31, // Probe an unknown pk past int32 when items carry no pk
  // #32 the real app: every declared operation routed, handlers, the app's own views
  b4cf090: 32, // Route every declared operation as DRF's router and Django would
  '6fe181f': 32, // Actions and views tested end to end; start-up names answer sources
  ad20ef3: 32, // MSW: the site's own Django views only on the API's origin
  // #33 control: journal, scenarios, sessions, the control page
  f5f9221: 33, // Drive the stub from outside the app: journal, scenarios, sessions
  '466cb4d': 33, // Control page at /__stub/: operations, switches, live journal, reset
  '0c7b518': 33, // Journal entries hold the request's headers, not the request
  af2b404: 33, // Stub problems carry their answer's status in the body
  // #34 the front page: config files, placed errors, designer tools, the client package
  '8ecc509': 34, // check, proxy, record: settings from variables and a config file
  '4c8862e': 34, // Count words in the contract's reports agree with their numbers
  f771e4a: 34, // Place load errors in the file, line and field the designer wrote
  '30fcaf7': 34, // Tell what a reload changed; write --types at start-up too
  '3208ef7': 34, // Designer tools: fixtures and generate as bin commands with --help
  '10d8f9c': 34, // A version command and -V, for when npx takes --version
  '8532966': 34, // Designer tools name their files relative to the working folder
  '87260c9': 34, // Root entry's TSDoc names which entries the client package has
  cb00e9c: 34, // Fixture problems carry their line and column in the fixture file
  '9b9b2ce': 34, // A spec's own format is an annotation: the stub and checker load it
  d9ce7a7: 34, // Generated strings are never blank unless the schema allows it
};

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const SRC = ['--', 'src', ':(exclude)src/generated'];

try {
  git('cat-file', '-e', `${BASE}^{commit}`);
} catch {
  console.error(`redesign-lines: commit ${BASE} is not in this clone (a shallow clone?): git fetch --unshallow`);
  process.exit(2);
}

const totals = new Map<string, { added: number; removed: number; commits: number }>();
const named = new Set<string>();
for (const hash of git('rev-list', '--no-merges', '--reverse', `${BASE}..HEAD`, ...SRC).split('\n')) {
  if (hash === '') continue;
  const short = Object.keys(OTHER_ISSUES).find((k) => hash.startsWith(k));
  if (short !== undefined) named.add(short);
  const who = hash.startsWith(FORMAT) ? 'Prettier' : short !== undefined ? `#${OTHER_ISSUES[short]}` : '#29';
  const t = totals.get(who) ?? { added: 0, removed: 0, commits: 0 };
  for (const line of git('show', '--numstat', '--format=', hash, ...SRC).split('\n')) {
    const [a, r] = line.split('\t');
    if (a === undefined || r === undefined || a === '-') continue;
    t.added += Number(a);
    t.removed += Number(r);
  }
  t.commits++;
  totals.set(who, t);
}
const missing = Object.keys(OTHER_ISSUES).filter((k) => !named.has(k));
if (missing.length > 0) {
  console.error(`redesign-lines: not commits since ${BASE} that change src/: ${missing.join(', ')}`);
  process.exit(2);
}

/** Lines a diff adds less the lines it removes, in src/ (generated code aside). */
function net(from: string, to: string): number {
  let n = 0;
  for (const line of git('diff', '--numstat', from, to, ...SRC).split('\n')) {
    const [a, r] = line.split('\t');
    if (a !== undefined && r !== undefined && a !== '-') n += Number(a) - Number(r);
  }
  return n;
}
// What a merge changed beyond the commits it brought: its whole change less theirs.
let merges = 0;
for (const m of git('rev-list', '--merges', `${BASE}..HEAD`).split('\n')) {
  if (m === '') continue;
  const brought = git('rev-list', '--no-merges', `${m}^1..${m}^2`).split('\n').filter(Boolean);
  merges += net(`${m}^1`, m) - brought.reduce((sum, c) => sum + net(`${c}^`, c), 0);
}
const sum = [...totals.values()].reduce((s, t) => s + t.added - t.removed, 0) + merges;
if (sum !== net(BASE, 'HEAD')) {
  console.error(`redesign-lines: the commits add up to ${sum}, the whole diff to ${net(BASE, 'HEAD')}`);
  process.exit(2);
}

/** Lines of src/ (generated code aside) in a tree, each file as Prettier writes it. */
function formattedLines(rev: string): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'redesign-lines-'));
  try {
    execFileSync('sh', ['-c', `git archive ${rev} src | tar -x -C "${dir}"`]);
    rmSync(path.join(dir, 'src/generated'), { recursive: true, force: true });
    execFileSync('npx', ['prettier', '--config', '.prettierrc.json', '--write', `${dir}/src`], { stdio: 'ignore' });
    return countLines(path.join(dir, 'src'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
function countLines(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) n += countLines(p);
    else if (name.endsWith('.ts')) n += readFileSync(p, 'utf8').split('\n').length - 1;
  }
  return n;
}

const row = (who: string, t: { added: number; removed: number; commits: number }) =>
  `${who.padEnd(9)} ${String(t.commits).padStart(7)} ${String(t.added).padStart(7)} ${String(t.removed).padStart(8)}` +
  ` ${(t.added - t.removed > 0 ? '+' : '') + String(t.added - t.removed).padStart(6)}`;
console.log(`src/ (generated code aside), ${BASE}..HEAD, by issue:`);
console.log('issue     commits   added  removed    net');
for (const who of [...totals.keys()].sort()) console.log(row(who, totals.get(who) as never));
console.log(`#29, what merges changed beyond their commits: ${merges > 0 ? '+' : ''}${merges}`);
const before = formattedLines(BASE);
const now = formattedLines('HEAD');
console.log(
  `src/ formatted by Prettier: ${before} lines at ${BASE}, ${now} at HEAD (${now - before >= 0 ? '+' : ''}${now - before})`,
);
const r = totals.get('#29') ?? { added: 0, removed: 0, commits: 0 };
const redesign = r.added - r.removed + merges;
console.log(
  `the redesign (#29): ${redesign > 0 ? '+' : ''}${redesign} lines, ` +
    (redesign < 0 ? 'it removes more lines than it adds' : 'it does not remove more lines than it adds'),
);
