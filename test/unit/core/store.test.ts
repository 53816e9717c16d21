import { describe, expect, it } from 'vitest';
import { prepareItem, prepareItemFromText } from '../../../src/core/store.js';

describe('an item is prepared without its writeOnly members', () => {
  it('leaves them out of the JSON, from an object and from its text', () => {
    const opts = { fields: ['pk', 'name', 'password'], withUrl: false, pkField: 'pk', hidden: ['password'] };
    const value = { pk: 1, name: 'a', password: 'secret' };
    expect(prepareItem(value, opts).json).toBe('{"pk":1,"name":"a"}');
    expect(prepareItemFromText(value, JSON.stringify(value), opts).json).toBe('{"pk":1,"name":"a"}');
    // A `__proto__` member stays a member (no prototype set) when one is left out.
    const odd = JSON.parse('{"pk":2,"__proto__":{"x":1},"password":"p"}') as Record<string, unknown>;
    expect(prepareItem(odd, opts).json).toBe('{"pk":2,"__proto__":{"x":1}}');
    // Out of schema order, too: the members are put in order, the `__proto__` one kept.
    const unordered = JSON.parse('{"password":"p","__proto__":{"x":1},"name":"n","pk":3}') as Record<string, unknown>;
    expect(prepareItem(unordered, opts).json).toBe('{"pk":3,"name":"n","__proto__":{"x":1}}');
    expect(prepareItem(unordered, { ...opts, hidden: [] }).json).toBe(
      '{"pk":3,"name":"n","password":"p","__proto__":{"x":1}}',
    );
  });
});
