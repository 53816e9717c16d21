import { describe, expect, it } from 'vitest';
import { choosePage, numPages, pageLinks } from '../../../../src/core/drf/pagination.js';
import { parseQuery } from '../../../../src/core/python/query.js';
import { recordedTable } from '../recorded/recording.js';

describe('choosePage (Paginator.validate_number with Python int())', () => {
  it.each([
    ['absent', undefined, 1],
    ['empty', '', 1],
    ['last', 'last', 10],
    ['plain', '3', 3],
    ['white space', ' 3 ', 3],
    ['plus sign', '+2', 2],
    ['underscore', '1_0', 10],
    ['leading zeros', '004', 4],
  ])('%s → page %s', (_n, raw, page) => expect(choosePage(raw, 95, 10)).toEqual({ ok: true, page, numPages: 10 }));

  it.each([['0'], ['-1'], ['11'], ['1.5'], ['1e1'], ['abc'], ['1__0'], ['%00'], ['9'.repeat(30)], ['LAST']])(
    '%s is invalid',
    (raw) => expect(choosePage(raw, 95, 10)).toEqual({ ok: false }),
  );

  it('an empty collection has one page', () => {
    expect(numPages(0, 100)).toBe(1);
    expect(choosePage('1', 0, 100).ok).toBe(true);
    expect(choosePage('2', 0, 100).ok).toBe(false);
  });
});

describe('pageLinks', () => {
  it.each([
    ['first page', '', 1, 3, 'http://h/x?page=2', null],
    ['middle page', 'page=2', 2, 3, 'http://h/x?page=3', 'http://h/x'],
    ['third page', 'page=3&format=api', 3, 4, 'http://h/x?format=api&page=4', 'http://h/x?format=api&page=2'],
    ['last page', 'page=3', 3, 3, null, 'http://h/x?page=2'],
    ['single page', '', 1, 1, null, null],
  ])('%s', (_n, query, page, pages, next, previous) => {
    expect(pageLinks('http://h/x', parseQuery(query), page, pages)).toEqual({ next, previous });
  });
});

const { cases, differing, replay } = recordedTable('drf/pagination.json', {});

describe('page numbers and links, as the reference deployment answers (recorded in ../recorded/drf/pagination.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});
