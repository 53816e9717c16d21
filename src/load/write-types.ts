import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { rel } from './paths.js';

/**
 * `--types FILE`: the spec's TypeScript types written to `file` when they differ from what it
 * holds (at start-up, then after each reload that changes them), or why they could not be.
 */
export async function writeTypes(file: string, specFile: string, log: (line: string) => void): Promise<void> {
  try {
    // Loaded only here: openapi-typescript brings the TypeScript compiler (~80 MiB).
    const { generateTypes } = await import('./generate-types.js');
    const types = await generateTypes(specFile);
    const current = await readFile(file, 'utf8').catch(() => '');
    if (current !== types) {
      // Whole or not at all: a dev server or an editor watching the file never reads half of it.
      const partial = `${file}.partial-${process.pid}`;
      try {
        await writeFile(partial, types);
        await rename(partial, file);
      } finally {
        await rm(partial, { force: true });
      }
      log(`types written: ${rel(file)}`);
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const missing = err.code === 'ERR_MODULE_NOT_FOUND' && err.message.includes("'openapi-typescript'");
    log(
      missing
        ? 'types not written: --types needs openapi-typescript (npm install --save-dev openapi-typescript)'
        : `types not written: ${err.message}`,
    );
  }
}
