import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capfirst, compareStr, isSpace, pyStr, strip } from '../../../../src/core/python/str.js';
import { cpythonTable } from '../recorded/cpython.js';

const FLOAT =
  "Python's str() of a float from json.loads keeps its point and writes its repr (1.0, 1000.0, 1e+16); the stub's numbers have no such kind";
const ISSPACE = cpythonTable<{ from: number; to: number }, number[]>('str.json', 'isspace');
const STRIP = cpythonTable<string, string>('str.json', 'strip');
const STR_OF_JSON = cpythonTable<string, string>('str.json', 'str_of_json', {
  'a float written with .0': FLOAT,
  'an exponent': FLOAT,
  'a large float': FLOAT,
  'a large integer': 'Python reads the integer exactly; the stub, as a double',
});
const CAPFIRST = cpythonTable<string, string>('str.json', 'capfirst', {
  'an astral letter': "Python upper-cases the first code point; the stub's first UTF-16 unit is half of it",
});

describe("Python's str, as CPython answers (recorded in ../recorded/python/str.json)", () => {
  it.each(ISSPACE.cases)('isspace: %s', (_name, given, want) => {
    const spaces: number[] = [];
    for (let cp = given.from; cp <= given.to; cp++) if (isSpace(String.fromCodePoint(cp))) spaces.push(cp);
    expect(spaces).toEqual(want);
  });
  it.each(STRIP.cases)('strip: %s', (_name, given, want) => expect(strip(given)).toBe(want));
  it.each(STR_OF_JSON.cases)('str(json.loads(…)): %s', (_name, given, want) =>
    expect(pyStr(JSON.parse(given))).toBe(want),
  );
  it.each(STR_OF_JSON.differing)('str(json.loads(…)): %s: still a known difference', (_name, given, want) =>
    expect(pyStr(JSON.parse(given))).not.toBe(want),
  );
  it.each(CAPFIRST.cases)('capfirst: %s', (_name, given, want) => expect(capfirst(given)).toBe(want));
  it.each(CAPFIRST.differing)('capfirst: %s: still a known difference', (_name, given, want) =>
    expect(capfirst(given)).not.toBe(want),
  );
});

// str() of what json.loads gives, as CPython 3.11 writes it (ChoiceField's "… is not a valid choice.").
describe('pyStr: str() of a JSON value', () => {
  it.each<[unknown, string]>([
    ['S', 'S'],
    [null, 'None'],
    [true, 'True'],
    [['S'], "['S']"],
    [['S', 'P'], "['S', 'P']"],
    [[1, 2.5, null, true], '[1, 2.5, None, True]'],
    [{ a: 1, b: [1, { c: 'd' }] }, "{'a': 1, 'b': [1, {'c': 'd'}]}"],
    [["it's"], `["it's"]`],
    [['say "hi"'], `['say "hi"']`],
    [['both \' and "'], `['both \\' and "']`],
    [['back\\slash'], "['back\\\\slash']"],
    [['tab\there', 'new\nline'], "['tab\\there', 'new\\nline']"],
    [['\x01'], "['\\x01']"],
    [['é€😀'], "['é€😀']"],
    [[], '[]'],
    [{}, '{}'],
    [[[]], '[[]]'],
    [['\u2028'], "['\\u2028']"],
    [['\u00a0x'], "['\\xa0x']"],
    [[0.00001], '[1e-05]'],
  ])('%j', (value, want) => expect(pyStr(value)).toBe(want));
});

describe("compareStr: Python's order of two str, by code point", () => {
  /** The oracle: the code points, compared one by one (as CPython's unicode_compare does). */
  const oracle = (a: string, b: string) => {
    const [x, y] = [Array.from(a, (c) => c.codePointAt(0) as number), Array.from(b, (c) => c.codePointAt(0) as number)];
    for (let i = 0; i < Math.min(x.length, y.length); i++)
      if (x[i] !== y[i]) return Math.sign((x[i] as number) - (y[i] as number));
    return Math.sign(x.length - y.length);
  };
  it.each<[string, string, string, number]>([
    ['equal', 'abc', 'abc', 0],
    ['a prefix first', 'ab', 'abc', -1],
    ['by unit below the surrogates', 'Z', 'a', -1],
    ["past U+FFFF after U+E000 (JavaScript's < says before)", '\u{1F600}', '\uE000', 1],
    ['two pairs differing in the low unit', '\u{1F600}', '\u{1F601}', -1],
    ['a lone high surrogate before a pair', '\uD800', '\u{1F600}', -1],
    ['a lone high surrogate, then a letter, against a pair', '\uD83DA', '\u{1F600}', -1],
    ['a lone high surrogate, then a pair, against one then U+E000', '\uD800\u{1F600}', '\uD800\uE000', 1],
    ['a lone low surrogate against a BMP letter', '\uDC00', 'A', 1],
  ])('%s', (_name, a, b, want) => {
    expect(Math.sign(compareStr(a, b))).toBe(want);
    expect(Math.sign(compareStr(b, a))).toBe(want === 0 ? 0 : -want);
    expect(oracle(a, b)).toBe(want);
  });

  it('agrees with the code points over any text, surrogates alone included (property)', () => {
    const unit = fc.constantFrom('a', 'b', 'Z', '\uD83D', '\uDE00', '\uDE01', '\uD800', '\uDC00', '\uE000', '\uFFFF');
    const text = fc.array(unit, { maxLength: 6 }).map((u) => u.join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareStr(a, b))).toBe(oracle(a, b));
      }),
      { numRuns: 3000, seed: 29 },
    );
  });
});
