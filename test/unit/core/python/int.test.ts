import { describe, expect, it } from 'vitest';
import { pythonDecimal, pythonInt } from '../../../../src/core/python/int.js';
import { cpythonTable } from '../recorded/cpython.js';

const INT = cpythonTable<string, string | null>('int.json', 'int', {});
const DECIMAL = cpythonTable<string, number | null>('int.json', 'decimal', {});

describe('underscores in Decimal(): every one dropped (CPython 3.11)', () => {
  it.each<[string, number | null]>([
    ['_1', 1],
    ['1_', 1],
    ['1___2', 12],
    ['1._0', 1],
    ['1e_1', 10],
    ['-_1', -1],
    [' _1 ', 1],
    ['_', null],
  ])('%s', (given, want) => expect(pythonDecimal(given) ?? null).toBe(want));
});

describe('int() and Decimal() of a string, as CPython answers (recorded in ../recorded/python/int.json)', () => {
  it.each(INT.cases)('int: %s', (_name, given, want) => expect(pythonInt(given)?.toString() ?? null).toBe(want));
  it.each(INT.differing)('int: %s: still a known difference', (_name, given, want) =>
    expect(pythonInt(given)?.toString() ?? null).not.toBe(want),
  );
  it.each(DECIMAL.cases)('Decimal: %s', (_name, given, want) => expect(pythonDecimal(given) ?? null).toBe(want));
  it.each(DECIMAL.differing)('Decimal: %s: still a known difference', (_name, given, want) =>
    expect(pythonDecimal(given) ?? null).not.toBe(want),
  );
});
