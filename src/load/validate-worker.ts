// The validation worker (src/load/validate.ts starts it): the OpenAPI schema check is made (loaded,
// as the build precompiled it) at once, while the main thread still reads and bundles the spec;
// then one document, one answer.
import { parentPort } from 'node:worker_threads';
import { prepareValidation, validateDocument } from './oas-validate.js';

prepareValidation();
// The document comes as JSON text: parsed here in a tenth of the time a structured clone of it
// takes to arrive (validate.ts).
parentPort?.once('message', (text: string) => {
  void validateDocument(JSON.parse(text) as unknown).then((failure) => parentPort?.postMessage({ failure }));
});
