import { LoadError } from '../load/errors.js';
import { bundleSpec, type LoadedSpec, whileValidating } from '../load/spec.js';
import { type Operations, readOperations } from '../openapi/operations.js';
import { ContractAjv } from '../openapi/ajv.js';

/** What the checker needs from the spec: its operations and validators, compiled once. */
export interface Contract {
  readonly spec: LoadedSpec;
  readonly operations: Operations;
  readonly ajv: ContractAjv;
}

export async function loadContract(specFile: string): Promise<Contract> {
  // Operations read and validators compiled while the spec is validated (a large one on a worker
  // thread). Loaded once: no parsed value is kept for a reload.
  return whileValidating(await bundleSpec(specFile, undefined, undefined, 'auto', false), (spec) => {
    const { operations, problems } = readOperations(spec.doc, specFile);
    if (problems.length > 0) throw new LoadError(problems);
    const ajv = new ContractAjv(spec.doc, spec.scan);
    for (const op of operations.all)
      for (const r of Object.values(op.responses)) if (r.schemaPointer) ajv.validator(r.schemaPointer);
    return { spec, operations, ajv };
  });
}
