import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import SwaggerParser from '@apidevtools/swagger-parser';

/**
 * Where the bundled spec is validated (swagger-parser: a full dereference, then the OpenAPI 3.1
 * schema over the result): on this thread, or on a worker thread while this one goes on reading
 * operations, compiling the model and streaming fixtures. `auto` takes a worker for a spec of at
 * least OFF_THREAD_MIN_CHARS characters, where validation takes hundreds of milliseconds (a
 * second for 2,000 collections); below it a worker's start costs more than it saves.
 */
export type ValidationPlace = 'inline' | 'worker' | 'auto';

export const OFF_THREAD_MIN_CHARS = 256 * 1024;

/**
 * The options both places validate with: the bundled document holds only internal `$ref`s, so
 * validation resolves nothing outside it (no resolver, no file read, on either thread).
 */
const OPTIONS = { resolve: { external: false } } as const;

/** What a failed validation carries: its message and Ajv's details (plain data, across threads). */
export interface ValidationFailure {
  readonly message: string;
  readonly details?: unknown;
}

/** The worker: swagger-parser required from where this package resolves it; one document, one answer. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SwaggerParser = require(workerData.parser);
parentPort.once('message', async (doc) => {
  try {
    await SwaggerParser.validate(doc, workerData.options);
    parentPort.postMessage({ ok: true });
  } catch (e) {
    parentPort.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e), details: e && e.details });
  }
});
`;

/** An error thrown by swagger-parser, as a failure. */
export function failureOf(e: unknown): ValidationFailure {
  return { message: e instanceof Error ? e.message : String(e), details: (e as { details?: unknown } | null)?.details };
}

/** A validation's outcome: its failure (none: valid), and the thread that gave it. */
export interface Validated {
  readonly failure: ValidationFailure | undefined;
  readonly thread: 'main' | 'worker';
}

async function validateHere(doc: unknown): Promise<Validated> {
  try {
    // validate() dereferences what it is given: it gets a copy, the bundled form is kept.
    await SwaggerParser.validate(structuredClone(doc) as never, OPTIONS as never);
    return { failure: undefined, thread: 'main' };
  } catch (e) {
    return { failure: failureOf(e), thread: 'main' };
  }
}

/**
 * The worker's stack, as large as this thread's (V8's --stack-size, 984 KiB unless set, plus the
 * 192 KiB Node keeps below a worker's limit): a worker's default (4 MiB) would dereference a chain
 * of `$ref`s this thread cannot, and take minutes where this thread fails at once.
 */
function mainThreadStackMb(): number {
  const kib = Number(/--stack-size=(\d+)/.exec(process.execArgv.join(' '))?.[1] ?? 984);
  return (kib + 192) / 1024;
}

/**
 * Validation on a worker thread. The document is copied to it (tens of milliseconds for 2,000
 * collections, against a second of validation). A worker that cannot start, fails outside
 * validation (out of memory) or exits without an answer is not an answer: the document is then
 * validated here, so the outcome never depends on where it ran. `source` is the worker's code
 * (a test gives one that fails).
 */
export function validateOffThread(doc: unknown, source = WORKER_SOURCE): Promise<Validated> {
  let worker: Worker;
  try {
    worker = new Worker(source, {
      eval: true,
      workerData: { parser: createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'), options: OPTIONS },
      resourceLimits: { stackSizeMb: mainThreadStackMb() },
    });
  } catch {
    return validateHere(doc);
  }
  return new Promise((resolve) => {
    let settled = false;
    /** The first outcome wins: the worker's answer, else validation here (started only then). */
    const settle = (answer: () => Promise<Validated> | Validated) => {
      if (settled) return;
      settled = true;
      void worker.terminate().catch(() => undefined);
      resolve(answer());
    };
    const here = () => validateHere(doc);
    worker.once('message', (m: { ok: true } | ({ ok: false } & ValidationFailure)) =>
      settle(() => ({ failure: m.ok ? undefined : { message: m.message, details: m.details }, thread: 'worker' })),
    );
    worker.once('error', () => settle(here));
    worker.once('exit', () => settle(here));
    try {
      worker.postMessage(doc);
    } catch {
      settle(here);
    }
  });
}

/** Validates a bundled spec where `place` says. */
export function validateBundled(doc: unknown, chars: number, place: ValidationPlace): Promise<Validated> {
  const offThread = place === 'worker' || (place === 'auto' && chars >= OFF_THREAD_MIN_CHARS);
  return offThread ? validateOffThread(doc) : validateHere(doc);
}
