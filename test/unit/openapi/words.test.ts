import { describe, expect, it } from 'vitest';
import { count, formatBytes, nearest } from '../../../src/openapi/words.js';

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

describe('count: a number with its noun in the number it takes', () => {
  it.each<[number, string, string | undefined, string]>([
    [0, 'endpoint', undefined, '0 endpoints'],
    [1, 'endpoint', undefined, '1 endpoint'],
    [1, 'rule', undefined, '1 rule'],
    [90, 'violation', undefined, '90 violations'],
    [1, 'query parameter', undefined, '1 query parameter'],
    [2, 'body', 'bodies', '2 bodies'],
    [3, 'item url', undefined, '3 item urls'],
    [1, 'entry', 'entries', '1 entry'],
    [2, 'entry', 'entries', '2 entries'],
  ])('%d %s', (n, singular, plural, want) => {
    expect(count(n, singular, plural)).toBe(want);
  });

  it.each<[number, string]>([
    [1, '1 byte'],
    [100, '100 bytes'],
    [1536, '1.5 KiB'],
    [2 ** 20, '1 MiB'],
  ])('formatBytes(%d)', (n, want) => {
    expect(formatBytes(n)).toBe(want);
  });
});
