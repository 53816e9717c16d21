// Records the answers the unit tables of test/unit/core/recorded/ expect: the reference deployment's
// (test/reference/drf, started once) for drf/*.json and django/*.json. Each file's cases are its
// input: every answer is replaced by the one recorded now, and the file written again (stable,
// formatted).
//
//   npm run record:answers
import { writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { referenceRecordings, replayOnReference, startRecordingReference } from '../test/reference/replay.js';
import {
  CONFIGURATION,
  readRecording,
  type RecordedRequest,
  recordingPath,
  type Want,
} from '../test/unit/core/recorded/recording.js';

/** The file's text as the repository keeps it: prettier's JSON, so that `npm run lint` finds it formatted. */
async function writeFormatted(file: string, value: unknown): Promise<void> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(JSON.stringify(value), { ...options, filepath: file }));
}

/** A request with its members in one order. */
function canonical(req: RecordedRequest): RecordedRequest {
  return {
    method: req.method,
    path: req.path,
    ...(req.headers?.length ? { headers: req.headers } : {}),
    ...(req.body !== undefined ? { body: req.body } : {}),
    ...(req.bodyHex !== undefined ? { bodyHex: req.bodyHex } : {}),
  };
}

async function recordReference(): Promise<void> {
  const reference = await startRecordingReference();
  const names = referenceRecordings();
  let answers: Map<string, Want[]>;
  const started = Date.now();
  try {
    answers = await replayOnReference(reference.url, names);
  } finally {
    await reference.stop();
  }
  for (const name of names) {
    const recording = readRecording(name);
    const wants = answers.get(name) ?? [];
    await writeFormatted(recordingPath(name), {
      about: recording.about,
      configuration: CONFIGURATION,
      ...(recording.headers ? { headers: [...recording.headers].sort() } : {}),
      cases: recording.cases.map((c, i) => ({
        name: c.name,
        ...(c.setup?.length ? { setup: c.setup.map(canonical) } : {}),
        request: canonical(c.request),
        want: wants[i],
      })),
    });
    process.stdout.write(`${name}: ${recording.cases.length} answers\n`);
  }
  process.stdout.write(`recorded from the reference in ${Date.now() - started} ms\n`);
}

await recordReference();
