import path from 'node:path';
import { type ContractAjv, describeViolation } from '../openapi/ajv.js';
import type { Operations } from '../openapi/operations.js';
import type { LoadProblem } from './errors.js';
import { DEFAULT_LOAD_LIMITS, type LoadLimits, nestingDepth } from './limits.js';
import { rel } from './paths.js';
import { folderOf, readConfinedText } from './read-confined.js';

/**
 * The bodies of operations that name a fixture (`x-stub-fixture` on an action or a view): the
 * file's JSON, whatever its type (a bare array, an object, a boolean), checked against the
 * declared success schema. By operation pointer. A fixture named but missing is a problem: the
 * spec says where the answer comes from.
 */
export async function readOperationFixtures(
  operations: Operations,
  fixturesDir: string,
  ajv: ContractAjv,
  limits: LoadLimits = DEFAULT_LOAD_LIMITS,
): Promise<{ bodies: Record<string, unknown>; files: string[]; problems: LoadProblem[] }> {
  const bodies: Record<string, unknown> = {};
  const files: string[] = [];
  const problems: LoadProblem[] = [];
  const named = operations.customs.filter((op) => op.fixtureName !== undefined);
  if (named.length === 0) return { bodies, files, problems };
  const folder = await folderOf(fixturesDir, 'the fixtures folder');
  for (const op of named) {
    const file = path.resolve(fixturesDir, `${op.fixtureName}.json`);
    files.push(file);
    const problem = (pointer: string, reason: string) => problems.push({ file: rel(file), pointer, reason });
    const read = await readConfinedText(file, folder, limits);
    if (!read.ok) {
      problem(
        read.place,
        read.kind === 'missing'
          ? `${op.operationId} names this fixture (x-stub-fixture), which does not exist`
          : read.reason,
      );
      continue;
    }
    // The depth first, from the text: a value nested past the limit is never parsed.
    if (nestingDepth(read.text, limits.maxDepth) > limits.maxDepth) {
      problem('', `nested deeper than ${limits.maxDepth} levels`);
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch (e) {
      problem('', `invalid JSON: ${(e as Error).message}`);
      continue;
    }
    const schema = op.success?.schemaPointer;
    if (schema !== undefined) for (const v of ajv.validate(schema, body)) problem(v.pointer, describeViolation(v));
    bodies[op.pointer] = body;
  }
  return { bodies, files, problems };
}
