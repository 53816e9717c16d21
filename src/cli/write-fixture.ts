import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadContract } from '../contract/load.js';
import { shapeOf } from '../core/model.js';
import { generateItemsSync } from '../load/generate.js';
import { rel } from '../load/paths.js';
import { describesFields } from '../openapi/item-schema.js';

export interface WriteFixtureOptions {
  readonly specFile: string;
  readonly fixturesDir: string;
  readonly resource: string;
  readonly count: number | undefined;
  readonly defaultCount: number;
  readonly seed: number;
  readonly force: boolean;
}

export type WriteFixtureResult = { ok: true; file: string; count: number } | { ok: false; error: string };

/**
 * Writes generated items of one resource into `<fixturesDir>/<resource>.json` for a designer to
 * edit: the same items the stub would generate (same seed), without urls (built per request).
 * Never over an existing file unless `force`.
 */
export async function writeFixture(opts: WriteFixtureOptions): Promise<WriteFixtureResult> {
  const contract = await loadContract(opts.specFile);
  const list = contract.operations.lists.find((l) => l.resource === opts.resource);
  if (!list)
    return {
      ok: false,
      error: `no collection "${opts.resource}" in the spec; there are: ${contract.operations.lists.map((l) => l.resource).join(', ')}`,
    };
  if (!describesFields(contract.spec.doc, list.itemPointer)) {
    return {
      ok: false,
      error: `the items of ${list.path} have no described fields (${list.itemPointer}): describe them in the spec first`,
    };
  }
  const file = path.join(opts.fixturesDir, `${list.resource}.json`);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (exists && !opts.force) return { ok: false, error: `${rel(file)} exists; pass --force to overwrite it` };
  // As the stub serves them: generated items hold no writeOnly member (a fixture holds answers).
  const items = generateItemsSync(
    contract.spec.doc,
    list,
    shapeOf(contract.spec.doc, contract.operations, list).lookup,
    {
      seed: opts.seed,
      count: opts.count ?? list.generateCount ?? opts.defaultCount,
    },
  );
  // A designer's first fixture may go into a folder not made yet.
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(items, null, 2)}\n`);
  return { ok: true, file, count: items.length };
}
