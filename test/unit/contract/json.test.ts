import { describe, expect, it } from 'vitest';
import {
  keepExact,
  MAX_JSON_DEPTH,
  memberText,
  nestingDepth,
  parseExact,
  parseJson,
  sameJson,
  sameMember,
  stringifyExact,
  withoutMember,
} from '../../../src/contract/json.js';

const BIG = '9007199254740993'; // 2^53 + 1: JSON.parse rounds it to …992

describe('parseJson: bounded, never throws', () => {
  it.each<[string, string, number | undefined, { ok: boolean; reason?: RegExp }]>([
    ['an object', '{"a":[1,2]}', undefined, { ok: true }],
    ['as deep as allowed', '[[1]]', 2, { ok: true }],
    ['deeper than allowed', '[[[1]]]', 2, { ok: false, reason: /^JSON nested deeper than 2 levels$/ }],
    [
      'the default bound',
      `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`,
      undefined,
      {
        ok: false,
        reason: new RegExp(`deeper than ${MAX_JSON_DEPTH}`),
      },
    ],
    ['brackets inside strings do not count', '["[[[[[["]', 1, { ok: true }],
    ['not JSON', 'nope', undefined, { ok: false, reason: /JSON/ }],
  ])('%s', (_name, text, depth, want) => {
    const r = parseJson(text, depth);
    expect(r.ok).toBe(want.ok);
    if (!r.ok && want.reason) expect(r.reason).toMatch(want.reason);
  });

  it('nestingDepth is the loader’s', () => {
    expect(nestingDepth('{"a":[{"b":"]]]"}]}')).toBe(3);
  });
});

describe('integers past 2^53 keep their text', () => {
  it.each<[string, string, (v: unknown) => [object, string | number]]>([
    ['an object member', `{"pk":${BIG}}`, (v) => [v as object, 'pk']],
    ['an array element', `[1, ${BIG}]`, (v) => [v as object, 1]],
    [
      'a nested member under an escaped key',
      `{"a\\u0062":{"x":[0, ${BIG}]}}`,
      (v) => [(v as { ab: { x: number[] } }).ab.x, 1],
    ],
    ['after a string holding a quote', `{"s":"a\\"b","pk":${BIG}}`, (v) => [v as object, 'pk']],
  ])('%s', (_name, text, at) => {
    const value = parseExact(text);
    const [container, key] = at(value);
    expect((container as Record<string, number>)[key]).toBe(9007199254740992);
    expect(memberText(container, key)).toBe(BIG);
  });

  it('memberText: strings as they are, safe numbers as JSON writes them, anything else undefined', () => {
    const v = parseExact(`{"s":"x","n":1.5,"b":true,"o":{},"pk":${BIG}}`) as Record<string, unknown>;
    expect([memberText(v, 's'), memberText(v, 'n'), memberText(v, 'b'), memberText(v, 'o')]).toEqual([
      'x',
      '1.5',
      undefined,
      undefined,
    ]);
    v.pk = 5; // changed after parsing: the text kept no longer stands for it
    expect(memberText(v, 'pk')).toBe('5');
  });

  it('keepExact and withoutMember carry the texts to a copy', () => {
    const v = parseExact(`{"url":"u","pk":${BIG}}`) as Record<string, unknown>;
    const copy = { ...v };
    expect(memberText(copy, 'pk')).toBe('9007199254740992');
    keepExact(v, copy);
    expect(memberText(copy, 'pk')).toBe(BIG);
    const rest = withoutMember(v, 'url');
    expect(Object.keys(rest)).toEqual(['pk']);
    expect(memberText(rest, 'pk')).toBe(BIG);
  });
});

describe('sameJson and sameMember', () => {
  it.each<[string, unknown, unknown, boolean]>([
    ['members in another order', { a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }, true],
    ['two integers that round alike', parseExact(`{"pk":${BIG}}`), parseExact('{"pk":9007199254740992}'), false],
    ['the same big integer', parseExact(`{"pk":${BIG}}`), parseExact(`{"pk":${BIG}}`), true],
    ['an array and an object', [1], { 0: 1 }, false],
    ['a member more', { a: 1 }, { a: 1, b: 2 }, false],
    ['a member of another name', { a: 1 }, { b: 1 }, false],
    ['null and an object', null, {}, false],
    ['strings', 'x', 'x', true],
    ['1 and "1"', 1, '1', false],
  ])('%s', (_name, x, y, want) => {
    expect(sameJson(x, y)).toBe(want);
    expect(sameMember({ k: x }, 'k', { j: y }, 'j')).toBe(want);
  });
});

describe('stringifyExact: JSON.stringify, integers as parsed', () => {
  it.each<[string, unknown]>([
    ['an object', { a: 1, b: 'x', c: [true, null, { d: 1.5 }] }],
    ['empty containers', { a: [], b: {} }],
    ['undefined and function members dropped', { a: 1, b: undefined, c: () => 1 }],
    ['a top-level number', 42],
    ['a top-level string', 'x'],
  ])('%s, as JSON.stringify writes it at indent 0 and 2', (_name, value) => {
    expect(stringifyExact(value)).toBe(JSON.stringify(value));
    expect(stringifyExact(value, 2)).toBe(JSON.stringify(value, null, 2));
  });

  it('writes a big integer as it came, indented or not', () => {
    const v = parseExact(`{"pk":${BIG},"l":[${BIG}]}`);
    expect(stringifyExact(v)).toBe(`{"pk":${BIG},"l":[${BIG}]}`);
    expect(stringifyExact(v, 2)).toBe(`{\n  "pk": ${BIG},\n  "l": [\n    ${BIG}\n  ]\n}`);
  });
});
