import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slow project (`npm run test:slow`, also on CI): whole-package and whole-process tests (npm
 * pack and installs, builds of a copy, CLI runs by the dozen, Django started per test, the docs'
 * runnable blocks, file watching, the scale property tests). Everything else, the deployment
 * differential and the control page in Chromium included, is `npm test`.
 */
export const SLOW = [
  'test/package/pack.test.ts',
  'test/package/frontend-size.test.ts',
  'test/package/build-stamp.test.ts',
  'test/contract/robust.test.ts',
  'test/contract/record-integrity.test.ts',
  'test/contract/reference.test.ts',
  'test/integration/startup.test.ts',
  'test/integration/checker.test.ts',
  'test/integration/watch.test.ts',
  'test/integration/prism-oracle.test.ts',
  'test/integration/shutdown.test.ts',
  'test/reference/designer-differential.test.ts',
  'test/reference/checker-vs-reference.test.ts',
  'test/unit/core/drf/pagination.property.test.ts',
  'test/unit/core/pk-index.property.test.ts',
  'test/unit/load/watch.test.ts',
  'test/unit/load/bundle.property.test.ts',
  'test/integration/load-errors.test.ts',
  'test/contract/config.test.ts',
  'test/integration/watch-summary.test.ts',
  'test/integration/cli.test.ts',
  'test/integration/designer-tools.test.ts',
  'test/integration/fixtures-script.test.ts',
  'test/contract/record.test.ts',
  'test/docs/runnable.test.ts',
  'test/browser/docs.test.ts',
];

/**
 * The longest files, started first: vitest orders by its cache of earlier runs' durations, and a
 * fresh clone (CI) has none, so a long file started last would run alone at the end.
 */
const LONGEST_FIRST = [
  'test/reference/differential.test.ts',
  'test/reference/designer-differential.test.ts',
  'test/reference/checker-vs-reference.test.ts',
  'test/docs/runnable.test.ts',
  'test/integration/handlers.test.ts',
  'test/unit/load/validate.test.ts',
  'test/browser/control-page.test.ts',
  'test/integration/serve-designer-spec.test.ts',
  'test/contract/probes.test.ts',
  'test/reference/recorded.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Stable: the others keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/** The test files under `dir` whose text matches `pattern`. */
function testFiles(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : testFiles(file, pattern);
    return e.name.endsWith('.test.ts') && pattern.test(readFileSync(file, 'utf8')) ? [file] : [];
  });
}

/**
 * Test files that run with modules of their own, in a process of their own: those that replace a
 * module (`vi.mock`, `vi.doMock`), and those that set V8's flags to read its state (hidden
 * classes, the old generation's pages), which the files before them in a process change: their
 * random member names can fill the transitions V8 keeps from `{}`, their garbage the heap. Every
 * other file shares its worker's modules with the files before it (`isolate: false`), which saves
 * each file importing the source again: 48 s of imports a run on two cores went to 10 s.
 */
const OWN = testFiles('test', /\bvi\.(do)?[mM]ock\(|setFlagsFromString/);

/** `npm run test:slow` runs the SLOW files alone; `npm test` everything else. */
const SLOW_RUN = process.env.VITEST_SLOW === '1';
const INCLUDE = SLOW_RUN ? SLOW : ['test/**/*.test.ts'];
const EXCLUDE = SLOW_RUN ? configDefaults.exclude : [...configDefaults.exclude, ...SLOW];

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'own modules',
          include: SLOW_RUN ? OWN.filter((f) => SLOW.includes(f)) : OWN,
          exclude: EXCLUDE,
          isolate: true,
        },
      },
      {
        extends: true,
        test: { name: 'shared modules', include: INCLUDE, exclude: [...EXCLUDE, ...OWN], isolate: false },
      },
    ],
    // Generous: CI runs the suite on a shared 2-core machine, where spawning node with tsx under
    // the whole suite has taken 10 s; a hang still fails, a minute later.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default leaves a core free: on a 2-core machine one file at a time. Most files
    // wait on child processes and sockets, so two at a time on two cores halves the run.
    maxWorkers: Math.max(2, availableParallelism()),
    // One temporary folder per run, removed at its end (test/global-temp.ts).
    globalSetup: ['test/global-temp.ts'],
    sequence: { sequencer: LongestFirst },
    // Reports are read as text: no colour, even where CI=true would turn picocolors' on.
    env: { NO_COLOR: '1' },
  },
});
