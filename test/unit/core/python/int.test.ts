import { describe, expect, it } from 'vitest';
import { pythonDecimal, pythonInt } from '../../../../src/core/python/int.js';
import { cpythonTable } from '../recorded/cpython.js';

const INT = cpythonTable<string, string | null>('int.json', 'int', {
  'information separators':
    "int() takes ASCII white space only around the digits (Py_ISSPACE): U+001C to U+001F are refused; the stub's int() takes them",
});
const DECIMAL = cpythonTable<string, number | null>('int.json', 'decimal', {
  'two underscores': "Decimal() takes underscores in a row (1__0 is 10); the stub's refuses them",
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
