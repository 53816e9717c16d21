import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { validateDocument } from '../../../src/load/oas-validate.js';

// src/load/validate-worker.ts on a worker thread of its own (TypeScript, through tsx, as
// validate.ts starts it under the tests): one document as JSON text in, one answer out.
const BOOT = `
const { workerData } = require('node:worker_threads');
require(workerData.tsx).register();
require(workerData.file);
`;

function answerOf(text: string): Promise<unknown> {
  const worker = new Worker(BOOT, {
    eval: true,
    workerData: {
      tsx: createRequire(import.meta.url).resolve('tsx/cjs/api'),
      file: fileURLToPath(new URL('../../../src/load/validate-worker.ts', import.meta.url)),
    },
  });
  return new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage(text);
  }).finally(() => void worker.terminate());
}

// One worker start is half a second: one case here; validate.test.ts holds the worker's answers
// to this thread's on valid and invalid specs, through ValidationWorker.
describe('the validation worker: a document as JSON text, its failure as the answer', () => {
  it("a response without its description: what validateDocument answers here, message and Ajv's details", async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: { responses: { '200': {} } } } },
    };
    const failure = await validateDocument(structuredClone(doc));
    expect(failure?.message).toMatch(/must have required property 'description'/);
    expect(await answerOf(JSON.stringify(doc))).toEqual({ failure });
  });
});
