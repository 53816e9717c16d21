import { describe, expect, it } from 'vitest';
import { quote, quoteBytes, quotePlus } from '../../../../src/core/python/quote.js';
import { cpythonTable } from '../recorded/cpython.js';

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

const QUOTE = cpythonTable<{ text: string; safe: string }, string>('quote.json', 'quote');
const QUOTE_BYTES = cpythonTable<{ hex: string; safe: string }, string>('quote.json', 'quote_bytes');
const QUOTE_PLUS = cpythonTable<string, string>('quote.json', 'quote_plus');

describe('urllib.parse.quote, as CPython answers (recorded in ../recorded/python/quote.json)', () => {
  it.each(QUOTE.cases)('quote: %s', (_name, given, want) => expect(quote(given.text, given.safe)).toBe(want));
  it.each(QUOTE_BYTES.cases)('quote of bytes: %s', (_name, given, want) =>
    expect(quoteBytes(Buffer.from(given.hex, 'hex'), given.safe)).toBe(want),
  );
  it.each(QUOTE_PLUS.cases)('quote_plus: %s', (_name, given, want) => expect(quotePlus(given)).toBe(want));
});
