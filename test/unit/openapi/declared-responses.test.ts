import { describe, expect, it } from 'vitest';
import { isJsonMedia } from '../../../src/openapi/declared-responses.js';

describe('isJsonMedia: a JSON media type', () => {
  it.each<[string, boolean]>([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    ['application/problem+json', true],
    ['application/vnd.api+json ; q=1', true],
    ['text/json', false],
    ['application/jsonp', false],
    ['text/html', false],
    ['', false],
  ])('isJsonMedia(%j) is %j', (type, want) => {
    expect(isJsonMedia(type)).toBe(want);
  });
});
