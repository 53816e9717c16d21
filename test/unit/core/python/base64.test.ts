import { describe, expect, it } from 'vitest';
import { pythonB64decode } from '../../../../src/core/python/base64.js';
import { cpythonTable } from '../recorded/cpython.js';

const B64DECODE = cpythonTable<string, string | null>('base64.json', 'b64decode');

describe("base64.b64decode as DRF's BasicAuthentication reads a header, as CPython answers (../recorded/python/base64.json)", () => {
  it.each(B64DECODE.cases)('%s', (_name, given, want) => expect(pythonB64decode(given) ?? null).toBe(want));
});
