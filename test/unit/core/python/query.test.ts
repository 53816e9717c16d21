import { describe, expect, it } from 'vitest';
import {
  encodeSortedQuery,
  MAX_QUERY_FIELDS,
  parseQuery,
  queryFieldCount,
  unquotePlus,
} from '../../../../src/core/python/query.js';
import { cpythonTable } from '../recorded/cpython.js';

// Expected values are what CPython 3.12's urllib.parse answers for the same input.
describe('unquote_plus', () => {
  it.each([
    ['plus is space', 'a+b', 'a b'],
    ['escapes', '%C3%A9', 'é'],
    ['lower-case hex', '%c3%a9', 'é'],
    ['invalid escape kept', '%zz%4', '%zz%4'],
    ['invalid utf-8 replaced', '%FF', '\uFFFD'],
  ])('%s', (_n, given, want) => expect(unquotePlus(given)).toBe(want));
});

describe('parse_qs(keep_blank_values=True) then urlencode(sorted(...), doseq=True)', () => {
  it.each([
    ['sorted keys, repeated values in order', 'b=2&a=1&b=1', 'a=1&b=2&b=1'],
    ['blank values kept', 'a=&b', 'a=&b='],
    ['empty parts skipped', '&&a=1&', 'a=1'],
    ['semicolon is not a separator', 'a=1;b=2', 'a=1%3Bb%3D2'],
    ['re-encoded', 'q=%7e+x', 'q=~+x'],
    ['code point order past U+FFFF', '%F0%9F%98%80=1&%EF%BD%9E=2', '%EF%BD%9E=2&%F0%9F%98%80=1'],
  ])('%s', (_n, given, want) => expect(encodeSortedQuery(parseQuery(given))).toBe(want));

  it('keeps __proto__ as an ordinary key', () => {
    const q = parseQuery('__proto__=1&constructor=2');
    expect([...q.keys()]).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

const UNQUOTE_PLUS = cpythonTable<string, string>('query.json', 'unquote_plus');
const PARSE_QS = cpythonTable<string, [string, string[]][]>('query.json', 'parse_qs');
const URLENCODE_SORTED = cpythonTable<string, string>('query.json', 'urlencode_sorted');
const TOO_MANY = cpythonTable<{ repeat: string; times: number; tail?: string; max: number }, boolean>(
  'query.json',
  'too_many_fields',
);

describe("urllib.parse as Django's QueryDict and DRF's links use it, as CPython answers (../recorded/python/query.json)", () => {
  it.each(UNQUOTE_PLUS.cases)('unquote_plus: %s', (_name, given, want) => expect(unquotePlus(given)).toBe(want));
  it.each(PARSE_QS.cases)('parse_qs: %s', (_name, given, want) => expect([...parseQuery(given)]).toEqual(want));
  it.each(URLENCODE_SORTED.cases)('urlencode(sorted(parse_qs)): %s', (_name, given, want) =>
    expect(encodeSortedQuery(parseQuery(given))).toBe(want),
  );
  it.each(TOO_MANY.cases)('parse_qsl max_num_fields: %s', (_name, given, want) => {
    expect(given.max).toBe(MAX_QUERY_FIELDS);
    expect(queryFieldCount(given.repeat.repeat(given.times) + (given.tail ?? '')) > MAX_QUERY_FIELDS).toBe(want);
  });
});
