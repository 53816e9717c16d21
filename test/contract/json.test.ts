// JSON as the contract reads and writes it: nesting bounded, and integers past 2^53 kept as the
// deployment wrote them (Django's BigAutoField goes to 2^63; JSON.parse rounds past 2^53).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberText, parseExact, parseJson, sameJson, stringifyExact, withoutMember } from '../../src/contract/json.js';
import { asJson } from '../../src/contract/safe-text.js';

const BIG = '9007199254740993'; // 2^53 + 1: JSON.parse reads 9007199254740992

describe('integers past 2^53', () => {
  const at = (value: unknown, path: readonly string[]): object =>
    path.reduce((v, k) => (v as Record<string, unknown>)[k], value) as object;
  it.each([
    ['a member', `{"pk":${BIG}}`, [], BIG],
    ['a negative one', `{"pk":-${BIG}}`, [], `-${BIG}`],
    ['2^63 - 1', '{"pk":9223372036854775807}', [], '9223372036854775807'],
    ['in an array', `{"pk":[2,${BIG}]}`, ['pk'], BIG],
    ['after strings with brackets and escapes', `{"a":"[{\\"","k\\"ey":{"x":[{}],"pk":${BIG}}}`, ['k"ey'], BIG],
    ['beside a float', `{"f":1.5e+300,"pk":${BIG}}`, [], BIG],
  ] as const)('%s is read and written as sent', (_name, text, path, want) => {
    const value = parseExact(text);
    const container = at(value, path);
    expect(memberText(container, Array.isArray(container) ? '1' : 'pk')).toBe(want);
    expect(stringifyExact(value)).toBe(text);
    const parsed = parseJson(text);
    expect(parsed.ok && stringifyExact(parsed.value)).toBe(text);
    expect(JSON.stringify(JSON.parse(text))).not.toBe(text);
  });

  it('two integers that round to one number are two values', () => {
    const [a, b] = [parseExact(`{"pk":${BIG}}`), parseExact('{"pk":9007199254740992}')] as object[];
    expect(sameJson(a, b)).toBe(false);
    expect(sameJson(a, parseExact(`{"pk":${BIG}}`))).toBe(true);
    expect(asJson(a)).toBe(`{"pk":${BIG}}`);
  });

  it('a copy without one member keeps the others exact', () => {
    const item = parseExact(`{"url":"x","pk":${BIG}}`) as Record<string, unknown>;
    expect(stringifyExact(withoutMember(item, 'url'), 2)).toBe(`{\n  "pk": ${BIG}\n}`);
  });

  it('a repeated key: the last one counts, as JSON.parse', () => {
    const item = parseExact(`{"pk":${BIG},"pk":"x"}`) as object;
    expect(memberText(item, 'pk')).toBe('x');
  });

  it('any other JSON is written as JSON.stringify writes it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value);
        const read = parseExact(text);
        expect(stringifyExact(read, indent)).toBe(JSON.stringify(read, null, indent));
      }),
    );
  });
});
