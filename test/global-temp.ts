import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Every temporary file of a test run (theirs and the processes they start) goes under one folder,
 * removed when the run ends: tests make thousands of them. The machine's own temporary folder
 * stays known for what is meant to outlive a run (the packed-tarball test's toolchain cache).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const outer = process.env.WORKPLACE_STUB_OUTER_TMPDIR ?? tmpdir();
  const dir = await mkdtemp(path.join(outer, 'workplace-stub-tests-'));
  process.env.WORKPLACE_STUB_OUTER_TMPDIR = outer;
  process.env.TMPDIR = dir;
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
