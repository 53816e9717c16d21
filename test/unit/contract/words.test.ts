import { describe, expect, it } from 'vitest';
import * as contractWords from '../../../src/contract/words.js';
import * as openapiWords from '../../../src/openapi/words.js';

describe("the contract's words: the bottom layer's, re-exported", () => {
  it('exports count and formatBytes, the same functions as src/openapi/words.ts', () => {
    expect(Object.keys(contractWords).sort()).toEqual(['count', 'formatBytes']);
    expect(contractWords.count).toBe(openapiWords.count);
    expect(contractWords.formatBytes).toBe(openapiWords.formatBytes);
    expect(contractWords.count(2, 'violation')).toBe('2 violations');
  });
});
