import { describe, expect, it } from 'vitest';
import { quotePlus } from '../../../../src/core/python/quote.js';

// Expected values are what CPython 3.12's urllib.parse answers for the same input.
describe('quote_plus', () => {
  it.each([
    ['plain', 'abc', 'abc'],
    ['space', 'a b', 'a+b'],
    ['tilde kept', '~', '~'],
    ['star and comma escaped', '*,', '%2A%2C'],
    ['reserved', "!'()/?&=+", '%21%27%28%29%2F%3F%26%3D%2B'],
    ['utf-8', 'é€', '%C3%A9%E2%82%AC'],
    ['astral', '😀', '%F0%9F%98%80'],
  ])('%s', (_n, given, want) => expect(quotePlus(given)).toBe(want));
});
