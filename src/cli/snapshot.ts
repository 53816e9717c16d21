import { existsSync } from 'node:fs';
import { printLoadError } from '../load/report.js';
import { loadState } from '../load/state.js';

/** `workplace-stub snapshot`: the snapshot as JSON on stdout (exit 0), or the load's problems (exit 1). */
export async function snapshot(flags: {
  spec: string;
  fixtures: string;
  seed: number;
  generateCount: number;
}): Promise<number> {
  if (!existsSync(flags.spec)) {
    process.stderr.write(`error: --spec ${flags.spec} does not exist\n`);
    return 2;
  }
  if (!existsSync(flags.fixtures)) {
    process.stderr.write(`error: --fixtures ${flags.fixtures} does not exist\n`);
    return 2;
  }
  try {
    const state = await loadState({
      specFile: flags.spec,
      fixturesDir: flags.fixtures,
      seed: flags.seed,
      defaultGenerateCount: flags.generateCount,
      final: true,
    });
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(`${JSON.stringify(state.snapshot)}\n`, (e) => (e ? reject(e) : resolve())),
    );
    return 0;
  } catch (e) {
    printLoadError(e);
    return 1;
  }
}
