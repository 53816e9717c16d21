// Records the answers the unit tables of test/unit/core/recorded/ expect: the reference deployment's
// (test/reference/drf, started once) for drf/*.json and django/*.json, CPython's
// (scripts/record-python.py, /usr/bin/python3) for python/*.json. Each file's cases are its input:
// every answer is replaced by the one recorded now, and the file written again (stable, formatted).
//
//   npm run record:answers              # both
//   npm run record:answers -- python    # or: reference
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { PYTHON } from '../test/reference/drf-server.js';
import { referenceRecordings, replayOnReference, startRecordingReference } from '../test/reference/replay.js';
import {
  CONFIGURATION,
  readRecording,
  RECORDED_DIR,
  type RecordedRequest,
  recordingPath,
  type Want,
} from '../test/unit/core/recorded/recording.js';

/** White space but the space, and what is not printed (controls, format characters): written as escapes. */
const UNSEEN = /(?! )[\p{Z}\p{C}]/gu;
const escape = (ch: string) =>
  Array.from({ length: ch.length }, (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/**
 * The file's text as the repository keeps it: prettier's JSON (so that `npm run lint` finds it
 * formatted), every character that cannot be seen as an escape.
 */
async function writeFormatted(file: string, value: unknown): Promise<void> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  const text = JSON.stringify(value).replace(UNSEEN, escape);
  writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
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

async function recordPython(): Promise<void> {
  const script = join(import.meta.dirname, 'record-python.py');
  for (const f of readdirSync(join(RECORDED_DIR, 'python')).sort()) {
    if (!f.endsWith('.json')) continue;
    const file = join(RECORDED_DIR, 'python', f);
    const run = spawnSync(PYTHON, [script, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`${PYTHON} ${script} ${file} failed:\n${run.stderr}`);
    await writeFormatted(file, JSON.parse(run.stdout));
    process.stdout.write(`python/${f}: recorded from CPython\n`);
  }
}

const only = process.argv[2];
if (only !== undefined && only !== 'reference' && only !== 'python')
  throw new Error(`record what? reference or python (got ${only})`);
if (only !== 'python') await recordReference();
if (only !== 'reference') await recordPython();
