import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reverseQuote } from '../../../../src/core/django/urls.js';

describe("a pk in an item's url, as Django's reverse() quotes it", () => {
  // django.urls.resolvers: quote(arg, safe=RFC3986_SUBDELIMS + '/~:@'), per character, UTF-8 percent-encoded.
  const reference = (value: string) => {
    let out = '';
    for (const ch of value) {
      if (/[A-Za-z0-9_.\-~!$&'()*+,;=:@]/.test(ch)) out += ch;
      else for (const b of new TextEncoder().encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    return out;
  };
  it('writes every text as quote() does, a text of safe characters as it is (property)', () => {
    const safe = fc.string({ unit: fc.constantFrom(..."az09_.-~!$&'()*+,;=:@") });
    fc.assert(
      fc.property(fc.oneof(safe, fc.string(), fc.string({ unit: 'grapheme' }), fc.integer().map(String)), (s) => {
        expect(reverseQuote(s)).toBe(reference(s));
      }),
      { numRuns: 3000, seed: 23 },
    );
    expect(reverseQuote('12')).toBe('12');
    expect(reverseQuote('a b/é')).toBe('a%20b%2F%C3%A9');
  });
});
