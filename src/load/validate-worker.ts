// The validation worker (src/load/validate.ts starts it): the OpenAPI schema check is compiled at
// once, while the main thread still reads and bundles the spec; then one document, one answer.
import { parentPort } from 'node:worker_threads';
import { prepareValidation, validateDocument } from './oas-validate.js';

prepareValidation();
parentPort?.once('message', (doc: unknown) => {
  void validateDocument(doc).then((failure) => parentPort?.postMessage({ failure }));
});
