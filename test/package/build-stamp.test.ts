import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli-helpers.js';

/**
 * `npm start` and `npm run check` build first (`node scripts/build.mjs --if-stale`): a build whose
 * sources and configuration did not change stands without starting tsc, and any change is built.
 * Run on a copy of the project, beside the repository's installed packages, so that the
 * repository's own dist/ and build info are never touched.
 */

let dir: string;
const buildInfo = () => path.join(dir, 'node_modules/.cache/workplace-admin-stub/build.tsbuildinfo');
const build = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', ...args], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr + r.stdout).toBe(0);
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'build-stamp-'));
  for (const f of ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'])
    cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  // The frontend package's manifest and README: the build copies its files beside them (not its dist/).
  cpSync(path.join(ROOT, 'packages'), path.join(dir, 'packages'), {
    recursive: true,
    filter: (src) => !src.split(path.sep).includes('dist'),
  });
  // The installed packages, each linked; the copy's own node_modules/.cache holds its build info and stamp.
  mkdirSync(path.join(dir, 'node_modules'));
  for (const name of readdirSync(path.join(ROOT, 'node_modules')))
    if (name !== '.cache' && name !== '.bin')
      symlinkSync(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name));
  build();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the build before npm start', () => {
  it('stands without tsc when nothing changed', () => {
    rmSync(buildInfo());
    build('--if-stale');
    // tsc -b writes its build info on every run that reaches it.
    expect(existsSync(buildInfo())).toBe(false);
  });

  it('builds a source edited since', () => {
    appendFileSync(path.join(dir, 'src/core/router.ts'), '\nexport const STAMP_PROBE = 1;\n');
    build('--if-stale');
    expect(readFileSync(path.join(dir, 'dist/core/router.js'), 'utf8')).toContain('STAMP_PROBE');
    expect(existsSync(buildInfo())).toBe(true);
  }, 120_000);

  it('builds a source edited to the same size with its time put back (a coarse clock, a copy that keeps times)', () => {
    const file = path.join(dir, 'src/core/router.ts');
    const { atime, mtime } = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('STAMP_PROBE = 1', 'STAMP_PROBE = 7'));
    utimesSync(file, atime, mtime);
    build('--if-stale');
    expect(readFileSync(path.join(dir, 'dist/core/router.js'), 'utf8')).toContain('STAMP_PROBE = 7');
  }, 120_000);

  it('builds again an output removed since, and a new source', () => {
    rmSync(path.join(dir, 'dist/core/router.d.ts'));
    writeFileSync(path.join(dir, 'src/core/stamp-probe.ts'), 'export const NEW_PROBE = 2;\n');
    build('--if-stale');
    expect(readFileSync(path.join(dir, 'dist/core/router.d.ts'), 'utf8')).toContain('STAMP_PROBE');
    expect(readFileSync(path.join(dir, 'dist/core/stamp-probe.js'), 'utf8')).toContain('NEW_PROBE');
  }, 120_000);

  it('removes the output of a source removed since', () => {
    rmSync(path.join(dir, 'src/core/stamp-probe.ts'));
    build('--if-stale');
    expect(existsSync(path.join(dir, 'dist/core/stamp-probe.js'))).toBe(false);
  }, 120_000);
});
