import { describe, expect, it } from 'vitest';
import { isWholeTable, type Queryset, querysetOf } from '../../../src/openapi/queryset.js';

/** `x-queryset` read at `/q`: the queryset, and each problem as `pointer: reason`. */
function read(value: unknown): { queryset: Queryset; problems: string[] } {
  const problems: string[] = [];
  const queryset = querysetOf(value, '/q', (pointer, reason) => problems.push(`${pointer}: ${reason}`));
  return { queryset, problems };
}

const NONE: Queryset = { filter: undefined, ordering: [], anonymous: 'all', anonymousModel: undefined };

describe("querysetOf: a viewset's queryset (x-queryset), read and checked", () => {
  it.each<[string, unknown, Queryset]>([
    ['absent: the table as it stands, for everyone', undefined, NONE],
    [
      "the desks' (a manager's filter, Meta.ordering)",
      { filter: { active: true }, ordering: ['building', 'floor', 'number'] },
      {
        ...NONE,
        filter: { active: true },
        ordering: [
          { field: 'building', desc: false },
          { field: 'floor', desc: false },
          { field: 'number', desc: false },
        ],
      },
    ],
    ['descending', { ordering: ['-pk'] }, { ...NONE, ordering: [{ field: 'pk', desc: true }] }],
    [
      'nothing for an anonymous client, of another model',
      { anonymous: 'none', anonymousModel: 'Expense' },
      { ...NONE, anonymous: 'none', anonymousModel: 'Expense' },
    ],
  ])('%s', (_name, value, want) => {
    expect(read(value)).toEqual({ queryset: want, problems: [] });
  });

  it.each<[string, unknown, string[]]>([
    ['not an object', [], ['/q: must be an object with filter, ordering and anonymous']],
    [
      'a filter that is no object',
      { filter: 1 },
      ['/q/filter: must be an object of item members and the value each must have'],
    ],
    [
      'an ordering field that is only a sign',
      { ordering: ['-'] },
      ['/q/ordering: must be a list of item fields, each "-field" for descending'],
    ],
    [
      'a field with two signs',
      { ordering: ['--pk'] },
      ['/q/ordering: must be a list of item fields, each "-field" for descending'],
    ],
    [
      'anonymous neither none nor all',
      { anonymous: 'some' },
      ['/q/anonymous: must be "none" (an anonymous client sees no item) or "all"'],
    ],
    ['an empty model name', { anonymousModel: '' }, ['/q/anonymousModel: must name a model, such as "Expense"']],
    [
      'a member it does not know',
      { limit: 3 },
      ['/q/limit: unknown member: x-queryset has filter, ordering, anonymous and anonymousModel'],
    ],
  ])('%s: a problem, at its place, and the rest as if absent', (_name, value, want) => {
    const { queryset, problems } = read(value);
    expect(problems).toEqual(want);
    expect(queryset).toEqual(NONE);
  });
});

describe('isWholeTable: a queryset that holds its table as it stands', () => {
  it.each<[string, Queryset, boolean]>([
    ['none declared', NONE, true],
    ['nothing for an anonymous client only', { ...NONE, anonymous: 'none' }, true],
    ['a filter', { ...NONE, filter: { active: true } }, false],
    ['an ordering', { ...NONE, ordering: [{ field: 'pk', desc: true }] }, false],
  ])('%s: %j', (_name, q, want) => {
    expect(isWholeTable(q)).toBe(want);
  });
});
