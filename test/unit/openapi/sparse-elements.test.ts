import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { sparseElements } from '../../../src/openapi/sparse-elements.js';

setFlagsFromString('--allow-natives-syntax');
/** Whether V8 keeps an object's index-named members in a dictionary (its intrinsic, allowed above). */
const dictionaryElements = new Function('o', 'return %HasDictionaryElements(o)') as (o: object) => boolean;

describe('sparseElements: index-named members kept as JSON.parse keeps them', () => {
  it('turns the store of an object built member by member into a dictionary, for good', () => {
    const o: Record<string, unknown> = {};
    o['200'] = 'ok';
    expect(dictionaryElements(o)).toBe(false);
    expect(sparseElements(o)).toBe(o);
    expect(dictionaryElements(o)).toBe(true);
    o['404'] = 'missing';
    expect(dictionaryElements(o)).toBe(true);
    expect(dictionaryElements(JSON.parse('{"200":1,"404":2}') as object)).toBe(true);
  });

  it('leaves the members, their order and their values as they were', () => {
    const entries: [string, unknown][] = [
      ['404', 1],
      ['default', 2],
      ['200', { a: 1 }],
      ['2XX', null],
      ['0', 'zero'],
    ];
    const plain = Object.fromEntries(entries);
    const sparse = sparseElements(Object.fromEntries(entries));
    expect(Object.entries(sparse)).toEqual(Object.entries(plain));
    expect(JSON.stringify(sparse)).toBe(JSON.stringify(plain));
    expect(Object.getPrototypeOf(sparse)).toBe(Object.prototype);
    expect(2 ** 31 in sparse).toBe(false);
  });

  it('an empty record made so is a plain record: the keys, their order and the values of `{}` given the same assignments', () => {
    const keys = ['404', 'default', '200', '2XX', '201', '500', '405'];
    const plain: Record<string, number> = {};
    const record = sparseElements<Record<string, number>>({});
    keys.forEach((k, i) => {
      plain[k] = i;
      record[k] = i;
    });
    expect(Object.keys(record)).toEqual(Object.keys(plain));
    expect(Object.entries(record)).toEqual(Object.entries(plain));
    expect(JSON.stringify(record)).toBe(JSON.stringify(plain));
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(dictionaryElements(record)).toBe(true);
  });
});
