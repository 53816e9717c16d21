import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { isJsonMedia, statusRecord } from '../../../src/openapi/declared-responses.js';

describe('statusRecord', () => {
  it('is a plain record: the keys, their order and the values of `{}` given the same assignments', () => {
    const keys = ['404', 'default', '200', '2XX', '201', '500', '405'];
    const plain: Record<string, number> = {};
    const record = statusRecord<number>();
    keys.forEach((k, i) => {
      plain[k] = i;
      record[k] = i;
    });
    expect(Object.keys(record)).toEqual(Object.keys(plain));
    expect(Object.entries(record)).toEqual(Object.entries(plain));
    expect(JSON.stringify(record)).toBe(JSON.stringify(plain));
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });

  it('keeps its status keys in a dictionary, as JSON.parse would, not a store of 600-odd slots', () => {
    setFlagsFromString('--allow-natives-syntax');
    const dictionaryElements = new Function('o', 'return %HasDictionaryElements(o)') as (o: object) => boolean;
    const record = statusRecord<string>();
    record['404'] = 'missing';
    record['200'] = 'ok';
    expect(dictionaryElements(record)).toBe(true);
  });
});

describe('isJsonMedia: a JSON media type', () => {
  it.each<[string, boolean]>([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    ['application/problem+json', true],
    ['application/vnd.api+json ; q=1', true],
    ['text/json', false],
    ['application/jsonp', false],
    ['text/html', false],
    ['', false],
  ])('isJsonMedia(%j) is %j', (type, want) => {
    expect(isJsonMedia(type)).toBe(want);
  });
});
