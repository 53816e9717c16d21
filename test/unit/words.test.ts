import { describe, expect, it } from 'vitest';
import { nearest } from '../../src/openapi/words.js';

describe('nearest: the name a typo likely means', () => {
  it.each<[string, string, string[], string | undefined]>([
    ['a letter left out', 'reponses', ['responses', 'requestBody'], 'responses'],
    ['two letters swapped', 'tpye', ['type', 'title'], 'type'],
    ['case alone', 'OperationID', ['operationId'], 'operationId'],
    ['nothing near', 'stubOptions', ['openapi', 'info', 'paths'], undefined],
  ])('%s', (_name, name, known, want) => {
    expect(nearest(name, known)).toBe(want);
  });
});
