import { type Contract, loadContract } from '../contract/load.js';
import { printLoadError } from '../load/report.js';

/** The contract of `spec`; undefined once its problems are printed (the command then exits 2). */
export async function contractOf(spec: string): Promise<Contract | undefined> {
  try {
    return await loadContract(spec);
  } catch (e) {
    printLoadError(e);
    return undefined;
  }
}

/** The error for what `--only` names that the spec holds no collection of; undefined when none. */
export function unknownOnly(contract: Contract, only: readonly string[]): string | undefined {
  const unknown = only.filter((r) => !contract.operations.lists.some((l) => l.resource === r));
  return unknown.length > 0 ? `--only names no collection of the spec: ${unknown.join(', ')}` : undefined;
}
