import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestMethod } from '../../../../src/core/django/http.js';
import { recordedTable } from '../recorded/recording.js';

const { cases, differing, replay } = recordedTable('django/http.json', {
  'bad_request on HEAD': "Django's 400 for a refused Host on HEAD: Content-Length 0; the stub gives the page's length",
});

describe("Django's own pages and headers, as the reference deployment answers (recorded in ../recorded/django/http.json)", () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});

describe('requestMethod: REQUEST_METHOD.upper()', () => {
  it.each([
    ['GET', 'GET'],
    ['get', 'GET'],
    ['Patch', 'PATCH'],
    ['M-SEARCH', 'M-SEARCH'],
    ['GéT', 'GÉT'],
    ['ß', 'SS'],
    ['GET~', 'GET~'],
    ['', ''],
  ])('%j is %j', (given, want) => expect(requestMethod(given)).toBe(want));

  it('answers what toUpperCase answers, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => requestMethod(s) === s.toUpperCase()),
      {
        numRuns: 5000,
        seed: 29,
      },
    );
  });
});
