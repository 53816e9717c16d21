import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SPEC_ID } from '../openapi/ajv.js';
import { lastValue, type QueryMap } from '../core/python/query.js';
import type { AnyOperation } from '../openapi/operations.js';
import type { StubState } from '../load/state.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** One violation of a request: where (`query.page`) and why. */
export interface RequestViolation {
  readonly location: string;
  readonly message: string;
}

/**
 * `--validate-requests`: the query parameters an operation declares, checked against their
 * schemas. Query values are strings, so this Ajv (unlike the contract's) coerces them to the
 * declared types first; parameters the spec does not declare are ignored, as DRF ignores them.
 * Validators compile once per operation of a state.
 */
export function queryValidator(state: StubState): (op: AnyOperation, query: QueryMap) => RequestViolation[] {
  const ajv = new Ajv2020({ allErrors: true, coerceTypes: true, strict: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addSchema(state.spec.doc as object, SPEC_ID, undefined, false);
  const byOp = new Map<string, ValidateFunction>();
  return (op, query) => {
    let validate = byOp.get(op.pointer);
    if (!validate) {
      const properties = Object.fromEntries(
        Object.entries(op.queryParams).map(([name, pointer]) => [name, { $ref: `${SPEC_ID}${pointer}` }]),
      );
      validate = ajv.compile({ type: 'object', properties });
      byOp.set(op.pointer, validate);
    }
    const data: Record<string, unknown> = Object.create(null);
    for (const name of Object.keys(op.queryParams)) {
      const v = lastValue(query, name);
      if (v !== undefined) data[name] = v;
    }
    if (validate({ ...data })) return [];
    return (validate.errors ?? [])
      .filter((e) => e.instancePath !== '')
      .map((e) => ({
        location: `query.${e.instancePath.slice(1).split('/')[0] ?? ''}`,
        message: `${e.message ?? 'is invalid'}${e.keyword === 'enum' ? `: ${JSON.stringify(e.params.allowedValues)}` : ''}`,
      }))
      .filter((v, i, all) => all.findIndex((w) => w.location === v.location && w.message === v.message) === i);
  };
}
