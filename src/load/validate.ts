import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type ValidationFailure, validateDocument } from './oas-validate.js';

/**
 * Where the bundled spec is validated (swagger-parser's checks: a full dereference, then the
 * OpenAPI schema over the result; src/load/oas-validate.ts): on this thread, or on a worker thread
 * while this one goes on reading operations, compiling the model and streaming fixtures. `auto`
 * takes a worker once the spec's files read reach OFF_THREAD_MIN_CHARS characters, where
 * validation takes hundreds of milliseconds; below it a worker's start costs more than it saves.
 */
export type ValidationPlace = 'inline' | 'worker' | 'auto';

export const OFF_THREAD_MIN_CHARS = 256 * 1024;

/** A validation's outcome: its failure (none: valid), and the thread that gave it. */
export interface Validated {
  readonly failure: ValidationFailure | undefined;
  readonly thread: 'main' | 'worker';
}

/**
 * The worker's bootstrap: the worker module beside this one (src/load/validate-worker.ts, run
 * through tsx where this module is TypeScript, under the tests).
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
if (workerData.tsx) {
  require(workerData.tsx).register();
  require(workerData.file);
} else {
  import(workerData.url);
}
`;

function workerModule(): { url: string; file: string; tsx: string | undefined } {
  const self = import.meta.url;
  const typescript = self.endsWith('.ts');
  const url = new URL(`./validate-worker.${typescript ? 'ts' : 'js'}`, self);
  return {
    url: url.href,
    file: fileURLToPath(url),
    tsx: typescript ? createRequire(self).resolve('tsx/cjs/api') : undefined,
  };
}

async function validateHere(doc: unknown): Promise<Validated> {
  // Validation dereferences what it is given: it gets a copy, the bundled form is kept.
  return { failure: await validateDocument(JSON.parse(JSON.stringify(doc)) as unknown), thread: 'main' };
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
 * A validation worker, started before its document exists: it loads its modules and the OpenAPI
 * schema check while this thread still reads and bundles the spec. The document goes to it
 * as JSON text: a structured clone of a large spec takes the worker several times what JSON.parse
 * takes, on a core this thread needs. Objects that YAML aliases share arrive
 * apart, which no verdict or error tells (validate.test.ts); the bundled form holds nothing else
 * JSON cannot (a spec file with `.inf` or `.nan` is refused where it stands: yaml-text.ts). A
 * worker that cannot start, fails outside validation (out of memory) or ends without an answer is
 * not an answer: the document is then validated here, so the outcome never depends on where it
 * ran. `source` is the worker's code (a test gives one that fails).
 */
export class ValidationWorker {
  readonly #worker: Worker | undefined;
  /** Settles when the worker has failed or ended, whenever that is. */
  readonly #gone: Promise<void>;
  #used = false;

  constructor(source = WORKER_SOURCE) {
    let worker: Worker | undefined;
    try {
      worker = new Worker(source, {
        eval: true,
        workerData: workerModule(),
        resourceLimits: { stackSizeMb: mainThreadStackMb() },
      });
    } catch {
      worker = undefined;
    }
    this.#worker = worker;
    this.#gone = worker
      ? new Promise<void>((resolve) => {
          worker.once('error', () => resolve());
          worker.once('exit', () => resolve());
        })
      : Promise.resolve();
    // Until it is given a document, the worker keeps no process alive.
    worker?.unref();
  }

  /** Validates `doc` there (here, if the worker is gone). Once. */
  validate(doc: unknown): Promise<Validated> {
    if (this.#used) throw new Error('ValidationWorker.validate: once only');
    this.#used = true;
    const worker = this.#worker;
    if (!worker) return validateHere(doc);
    worker.ref();
    return new Promise((resolve) => {
      let settled = false;
      /** The first outcome wins: the worker's answer, else validation here (started only then). */
      const settle = (answer: () => Promise<Validated> | Validated) => {
        if (settled) return;
        settled = true;
        void worker.terminate().catch(() => undefined);
        resolve(answer());
      };
      worker.once('message', (m: { failure: ValidationFailure | undefined }) =>
        settle(() => ({ failure: m.failure, thread: 'worker' })),
      );
      void this.#gone.then(() => settle(() => validateHere(doc)));
      try {
        worker.postMessage(JSON.stringify(doc));
      } catch {
        settle(() => validateHere(doc));
      }
    });
  }

  /** Stops a worker that will not be given a document (the spec failed before validation). */
  close(): void {
    if (this.#used) return;
    this.#used = true;
    void this.#worker?.terminate().catch(() => undefined);
  }
}

/**
 * Where one spec's validation will run, chosen as its files are read: with `auto`, a worker is
 * started as soon as the characters read reach OFF_THREAD_MIN_CHARS (it prepares while the rest is
 * read and bundled); with `worker`, at once; with `inline`, never.
 */
export class SpecValidation {
  #worker: ValidationWorker | undefined;
  #chars = 0;

  constructor(readonly place: ValidationPlace) {
    if (place === 'worker') this.#worker = new ValidationWorker();
  }

  /** Told of each file read, its characters. */
  read(chars: number): void {
    this.#chars += chars;
    if (this.place === 'auto' && this.#worker === undefined && this.#chars >= OFF_THREAD_MIN_CHARS)
      this.#worker = new ValidationWorker();
  }

  /** Validates the bundled spec, where chosen. */
  validate(doc: unknown): Promise<Validated> {
    return this.#worker ? this.#worker.validate(doc) : validateHere(doc);
  }

  /** Nothing to validate after all (the spec failed before): a started worker is stopped. */
  close(): void {
    this.#worker?.close();
  }
}
