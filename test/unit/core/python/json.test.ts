import { describe, expect, it } from 'vitest';
import { parsePythonJson } from '../../../../src/core/python/json.js';
import { cpythonTable } from '../recorded/cpython.js';

// Recorded from CPython 3.11: json.loads(text, parse_constant=DRF's strict_constant), the message
// DRF puts after "JSON parse error - ".
describe('JSON as Python reads it', () => {
  it.each([
    [
      '1'.repeat(4301),
      'Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit',
    ],
    ['[1,2\nx', "Expecting ',' delimiter: line 2 column 1 (char 5)"],
    ['"ab\u{1F600}" x', 'Extra data: line 1 column 7 (char 6)'],
    ['{"a":\n"\u{1F600}" x}', "Expecting ',' delimiter: line 2 column 5 (char 10)"],
    ['"a\u0001"', 'Invalid control character at: line 1 column 3 (char 2)'],
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['[NaN]', "Out of range float values are not JSON compliant: 'NaN'"],
  ])('%j', (text, message) => {
    expect(parsePythonJson(text)).toEqual({ ok: false, message });
  });

  // This took seconds before (a code-point array and a slice per number): the suite's timeout
  // catches a return of it.
  it('JSON: an array of 500,000 numbers', () => {
    const parsed = parsePythonJson(`[${Array.from({ length: 500_000 }, (_, i) => i).join(',')}]`);
    expect(parsed.ok && (parsed.value as number[]).length).toBe(500_000);
  });
});

const LOADS = cpythonTable<string, ReturnType<typeof parsePythonJson>>('json.json', 'json_loads');

describe("json.loads with DRF's strict_constant, as CPython answers (recorded in ../recorded/python/json.json)", () => {
  it.each(LOADS.cases)('%s', (_name, given, want) => expect(parsePythonJson(given)).toEqual(want));
});
