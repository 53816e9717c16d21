import { describe, expect, it } from 'vitest';
import { objectAt, oasSchemaProblems } from '../../../src/load/oas-messages.js';

describe('OpenAPI structure errors told in words', () => {
  it.each<[string, string[], string | undefined]>([
    ['the root', [], 'the OpenAPI object'],
    ['a path item', ['paths', '/api/v1/desk'], 'a path item'],
    ['an operation', ['paths', '/api/v1/desk', 'get'], 'an operation'],
    ['a response', ['paths', '/x', 'get', 'responses', '200'], 'a response'],
    ['a media type', ['paths', '/x', 'post', 'requestBody', 'content', 'application/json'], 'a media type'],
    ['a parameter', ['paths', '/x', 'get', 'parameters', '0'], 'a parameter'],
    ['a component response', ['components', 'responses', 'NotFound'], 'a response'],
    ['a schema: not an OpenAPI object', ['components', 'schemas', 'Desk'], undefined],
  ])('%s', (_name, tokens, want) => {
    expect(objectAt(tokens)).toBe(want);
  });

  it.each<[string, object, string, string]>([
    [
      'a typo in an operation',
      {
        instancePath: '/paths/~1api/get',
        keyword: 'unevaluatedProperties',
        params: { unevaluatedProperty: 'reponses' },
      },
      '/paths/~1api/get/reponses',
      'unknown field `reponses` in an operation; did you mean `responses`?',
    ],
    [
      'a typo in a path item',
      { instancePath: '/paths/~1api', keyword: 'unevaluatedProperties', params: { unevaluatedProperty: 'gte' } },
      '/paths/~1api/gte',
      'unknown field `gte` in a path item; did you mean `get`?',
    ],
    [
      'a field like none',
      { instancePath: '', keyword: 'unevaluatedProperties', params: { unevaluatedProperty: 'stubOptions' } },
      '/stubOptions',
      'unknown field `stubOptions` in the OpenAPI object (an extension field begins with x-)',
    ],
    [
      'a missing field',
      { instancePath: '/info', keyword: 'required', params: { missingProperty: 'title' } },
      '/info',
      'the info object lacks the required field `title`',
    ],
  ])('%s', (_name, error, pointer, reason) => {
    expect(oasSchemaProblems('openapi.yaml', [error])).toEqual([{ file: 'openapi.yaml', pointer, reason }]);
  });

  it('leaves out the summary of an if/else whose branch is told', () => {
    const told = oasSchemaProblems('o.yaml', [
      { instancePath: '/info', keyword: 'required', params: { missingProperty: 'title' } },
      { instancePath: '/info', keyword: 'if', message: 'must match "else" schema', params: { failingKeyword: 'else' } },
    ]);
    expect(told.map((p) => p.reason)).toEqual(['the info object lacks the required field `title`']);
  });
});
