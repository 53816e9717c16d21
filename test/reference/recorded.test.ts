// The answers the unit tables replay without Python (test/unit/core/recorded/, written by
// `npm run record:answers`) are still the reference deployment's: every recorded case sent again to
// one reference, configured as the recordings were, and required to answer the same. A recording
// that no longer matches is stale: record again, and see what changed in the diff.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadState } from '../../src/load/state.js';
import { DEFAULTS } from '../../src/server/config.js';
import { readRecording, REFERENCE_FIXTURES, referenceSnapshot } from '../unit/core/recorded/recording.js';
import { referenceGate } from './drf-server.js';
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
});
