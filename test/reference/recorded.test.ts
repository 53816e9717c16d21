// The answers the unit tables replay without Python (test/unit/core/recorded/, written by
// `npm run record:answers`) are still the reference deployment's: every recorded case sent again to
// one reference, configured as the recordings were, and required to answer the same. A recording
// that no longer matches is stale: record again, and see what changed in the diff. The same for what
// CPython answers (python/*.json, scripts/record-python.py).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadState } from '../../src/load/state.js';
import { DEFAULTS } from '../../src/server/config.js';
import { readRecording, RECORDED_DIR, REFERENCE_FIXTURES, referenceSnapshot } from '../unit/core/recorded/recording.js';
import { PYTHON, referenceGate } from './drf-server.js';
import { referenceRecordings, replayOnReference, startRecordingReference } from './replay.js';

const gate = referenceGate();
if (!gate.run && gate.skip)
  console.warn(`recorded answers not replayed: the reference deployment is unavailable: ${gate.why}`);

describe('the recorded answers', () => {
  it('are replayed in process on what `--fixtures test/reference/fixtures` loads', async () => {
    const state = await loadState({
      specFile: DEFAULTS.specFile,
      fixturesDir: REFERENCE_FIXTURES,
      seed: DEFAULTS.seed,
      defaultGenerateCount: DEFAULTS.generateCount,
    });
    expect(JSON.parse(JSON.stringify(referenceSnapshot()))).toEqual(JSON.parse(JSON.stringify(state.snapshot)));
  });

  it.skipIf(!gate.run && gate.skip)(
    'are what the live reference answers now',
    async () => {
      if (!gate.run) throw new Error(`the reference deployment is unavailable: ${gate.why}`);
      const names = referenceRecordings();
      const reference = await startRecordingReference();
      try {
        const answers = await replayOnReference(reference.url, names);
        const stale: string[] = [];
        for (const name of names)
          readRecording(name).cases.forEach((c, i) => {
            const now = answers.get(name)?.[i];
            if (!isDeepStrictEqual(now, c.want))
              stale.push(
                `${name} "${c.name}":\n  recorded ${JSON.stringify(c.want)}\n  now      ${JSON.stringify(now)}`,
              );
          });
        expect(stale, `stale recordings (npm run record:answers):\n${stale.join('\n')}`).toEqual([]);
        expect([...answers.values()].flat().length).toBeGreaterThan(400);
      } finally {
        await reference.stop();
      }
    },
    120_000,
  );

  it.skipIf(!gate.run && gate.skip)('of CPython are what it answers now', () => {
    if (!gate.run) throw new Error(`the reference deployment is unavailable: ${gate.why}`);
    const script = join(import.meta.dirname, '..', '..', 'scripts', 'record-python.py');
    const files = readdirSync(join(RECORDED_DIR, 'python')).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const f of files) {
      const file = join(RECORDED_DIR, 'python', f);
      const run = spawnSync(PYTHON, [script, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(run.status, run.stderr).toBe(0);
      const { python: _now, ...answered } = JSON.parse(run.stdout) as Record<string, unknown>;
      const { python: _then, ...recorded } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(answered, `python/${f} is stale (npm run record:answers -- python)`).toEqual(recorded);
    }
  });
});
