import { describe, expect, it } from 'vitest';
import { ContractAjv, SPEC_ID } from '../../../src/openapi/ajv.js';
import { loadState } from '../../../src/load/state.js';
import { stateOptions } from '../../../src/server/config.js';
import { testConfig } from '../../helpers.js';

// The contract's Ajv registers a document without `$id`s or anchors as a root whose members are not
// enumerable (Ajv then has nothing to walk); one with any is registered as it is. An anchor in a
// schema nobody uses makes the same document take the plain registration: both must validate alike.
const state = await loadState(stateOptions(testConfig()));
const doc = state.spec.doc as Record<string, unknown> & { components: { schemas: Record<string, unknown> } };
const anchored = {
  ...doc,
  components: {
    ...doc.components,
    schemas: { ...doc.components.schemas, Unused: { $anchor: 'unused', type: 'string' } },
  },
};

/** Each item, and variants of it that break it in every way a field can be broken. */
function variants(item: Record<string, unknown>): unknown[] {
  const out: unknown[] = [item, { ...item, undeclared: 1 }, [], 'x', null];
  for (const key of Object.keys(item)) {
    const { [key]: _dropped, ...rest } = item;
    out.push(rest);
    for (const wrong of [null, 'x', 1.5, -1, true, {}, [1], '']) out.push({ ...item, [key]: wrong });
  }
  return out;
}

describe("the contract's Ajv: the document registered without a walk", () => {
  it('takes the opaque registration for the bundled spec, the plain one when an anchor is in it', () => {
    const opaque = new ContractAjv(doc).ajv.getSchema(SPEC_ID)?.schema as object;
    expect(opaque).not.toBe(doc);
    expect(Object.keys(opaque)).toEqual([]);
    expect((opaque as Record<string, unknown>).paths).toBe(doc.paths);
    expect(new ContractAjv(anchored).ajv.getSchema(SPEC_ID)?.schema).toBe(anchored);
  });

  it('every schema the operations name gives the same violations both ways, on every item and its broken variants', () => {
    const fast = new ContractAjv(doc);
    const plain = new ContractAjv(anchored);
    const { operations } = state.model;
    let compared = 0;
    let violations = 0;
    for (const list of operations.lists) {
      const items = state.snapshot.collections[list.path]?.items ?? [];
      const instances = items.slice(0, 5).flatMap((i) => variants(i as Record<string, unknown>));
      const pointers = [list.itemPointer, ...Object.values(list.responses).map((r) => r.schemaPointer)].filter(
        (p): p is string => p !== undefined,
      );
      const envelope = { count: items.length, next: null, previous: null, results: items.slice(0, 3) };
      for (const pointer of pointers) {
        for (const value of [...instances, envelope, { ...envelope, count: -1 }, { detail: 'Not found.' }]) {
          const a = fast.validate(pointer, value);
          expect(a).toEqual(plain.validate(pointer, value));
          compared++;
          violations += a.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(1_000);
    expect(violations).toBeGreaterThan(compared);
  });

  it('a $ref to an anchor still resolves (such a document is registered as it is)', () => {
    const spec = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          Name: { $anchor: 'name', type: 'string', minLength: 2 },
          Room: { type: 'object', properties: { name: { $ref: '#name' } } },
        },
      },
    };
    const ajv = new ContractAjv(spec);
    expect(ajv.validate('#/components/schemas/Room', { name: 'ok' })).toEqual([]);
    expect(ajv.validate('#/components/schemas/Room', { name: 'x' }).map((v) => v.keyword)).toEqual(['minLength']);
  });

  it("compiles a validator without compiling Ajv's meta-schema; a pointer that resolves nowhere throws, each time alike", () => {
    const ajv = new ContractAjv(doc);
    const meta = () =>
      (ajv.ajv as unknown as { schemas: Record<string, { validate?: unknown } | undefined> }).schemas[
        'https://json-schema.org/draft/2020-12/schema'
      ];
    expect(ajv.validate('#/components/schemas/Desk', {}).length).toBeGreaterThan(0);
    expect(meta()).toBeDefined();
    expect(meta()?.validate).toBeUndefined();
    const missing = () => ajv.validator('#/components/schemas/Nowhere');
    expect(missing).toThrow(/can't resolve reference/);
    expect(missing).toThrow(/can't resolve reference/);
    expect(ajv.validate('#/components/schemas/Desk', {})).toEqual(
      new ContractAjv(doc).validate('#/components/schemas/Desk', {}),
    );
  });
});
