import { describe, expect, it } from 'vitest';
import { parseExact } from '../../../src/contract/json.js';
import { asJson, asJsonMember, clip, escapeRegExp, printable } from '../../../src/contract/safe-text.js';

describe('printable: no control character reaches a terminal', () => {
  it.each<[string, string, string]>([
    ['plain text and non-ASCII letters pass', 'desk é 机', 'desk é 机'],
    ['ESC of a terminal escape', 'a\u001b[2Jb', 'a\\u001b[2Jb'],
    ['line breaks and tab by name', 'a\nb\rc\td', 'a\\nb\\rc\\td'],
    ['DEL and a C1 CSI', '\u007f\u009b', '\\u007f\\u009b'],
    ['bidi overrides and isolates (Trojan Source)', '\u202eab\u2066', '\\u202eab\\u2066'],
    ['direction marks', '\u200e\u200f', '\\u200e\\u200f'],
  ])('%s', (_name, given, want) => {
    expect(printable(given)).toBe(want);
  });
});

describe('escapeRegExp: a text a RegExp matches as it is', () => {
  it.each(['.*+?^${}()|[]\\', 'a.b', '(x)', 'C:\\dir', '[a-z]+', 'é/ü', ''])('%j', (text) => {
    const re = new RegExp(`^${escapeRegExp(text)}$`);
    expect(re.test(text)).toBe(true);
    // What the unescaped text would match otherwise is not matched.
    if (text !== '') expect(re.test(`${text}x`)).toBe(false);
  });

  it('matches nothing else: "a.b" is not "axb"', () => {
    expect(new RegExp(escapeRegExp('a.b')).test('axb')).toBe(false);
  });
});

describe('clip: at most max characters, never half a surrogate pair', () => {
  it.each<[string, string, number, string]>([
    ['short enough', 'abc', 3, 'abc'],
    ['cut with an ellipsis', 'abcd', 3, 'abc…'],
    ['a pair at the cut is left out whole', 'a😀b', 2, 'a…'],
    ['a pair before the cut is kept', '😀bc', 2, '😀…'],
  ])('%s', (_name, text, max, want) => {
    expect(clip(text, max)).toBe(want);
  });
});

describe('asJson and asJsonMember: values as reports show them', () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  it.each<[string, unknown, string]>([
    ['undefined is nothing', undefined, 'nothing'],
    ['a string quoted', 'x"y', '"x\\"y"'],
    ['a number', 1.5, '1.5'],
    ['null', null, 'null'],
    ['an object', { a: [1, true] }, '{"a":[1,true]}'],
    ['an integer past 2^53 as written', parseExact('{"pk":9007199254740993}'), '{"pk":9007199254740993}'],
    ['a cycle does not throw', cycle, '[object Object]'],
    ['a BigInt does not throw', 10n, '10'],
  ])('asJson: %s', (_name, value, want) => {
    expect(asJson(value)).toBe(want);
  });

  it.each<[string, string, string]>([
    ['an integer past 2^53 by its text', 'pk', '9007199254740993'],
    ['a string', 's', '"x"'],
    ['a member missing', 'nope', 'nothing'],
  ])('asJsonMember: %s', (_name, key, want) => {
    const item = parseExact('{"pk":9007199254740993,"s":"x"}') as object;
    expect(asJsonMember(item, key)).toBe(want);
  });
});
