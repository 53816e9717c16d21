import { describe, expect, it } from 'vitest';
import type { LoadProblem } from '../../../src/load/errors.js';
import { type CheckContext, checkItems, itemChecker, validationUrlOf } from '../../../src/load/items.js';
import type { DetailOperation } from '../../../src/openapi/operations.js';
import { checkOf, smallSpec } from './helpers.js';

const DOC = smallSpec({
  // Items with a url the stub builds (a url member and an item path).
  desk: {
    item: {
      type: 'object',
      required: ['url', 'pk', 'building'],
      properties: {
        url: { type: 'string', format: 'uri', pattern: '/api/v1/desk/[^/]+\\?format=api$' },
        pk: { type: ['integer', 'string'] },
        building: { enum: ['S', 'P'] },
        badge: { type: 'string', writeOnly: true },
      },
      additionalProperties: false,
    },
  },
  // Items without one.
  tag: { item: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }, detail: false },
});

/** The loader's context for the collection, its items stored in a fixture (`stored`) or not. */
function ctxOf(collection: string, stored: boolean): CheckContext {
  return { ...checkOf(DOC, `/api/v1/${collection}`, `${collection}.json`)(undefined).ctx, stored };
}
const told = (problems: LoadProblem[]) => problems.map((p) => `${p.file} ${p.pointer}: ${p.reason}`);

describe('checkItems: the items that pass, every problem of the others', () => {
  it.each<[string, string, boolean, unknown[], unknown[], string[]]>([
    [
      'valid items, as they are',
      'desk',
      true,
      [
        { pk: 1, building: 'S' },
        { pk: 'b2', building: 'P' },
      ],
      [
        { pk: 1, building: 'S' },
        { pk: 'b2', building: 'P' },
      ],
      [],
    ],
    [
      'a url in a fixture: a mistake',
      'desk',
      true,
      [{ url: 'http://x/api/v1/desk/1?format=api', pk: 1, building: 'S' }],
      [],
      [
        'desk.json /0/url: url is built per request from the deployment that serves it (§9.2); remove it from the fixture',
      ],
    ],
    [
      'a url in an example (not stored): taken off',
      'desk',
      false,
      [{ url: 'http://x/api/v1/desk/1?format=api', pk: 1, building: 'S' }],
      [{ pk: 1, building: 'S' }],
      [],
    ],
    [
      'a pk that cannot stand in a url, or none',
      'desk',
      true,
      [{ pk: 'a.b', building: 'S' }, { pk: 'a/b', building: 'S' }, { building: 'S' }, { pk: true, building: 'S' }],
      [],
      [0, 1, 2, 3].map(
        (i) => `desk.json /${i}/pk: pk must be a number or a string matching [^/.]+ (it forms the last segment of url)`,
      ),
    ],
    [
      'the schema checked with the url the stub would build',
      'desk',
      true,
      [{ pk: 1, building: 'Z', zone: 4 }],
      [],
      [
        'desk.json /0: must NOT have additional properties: "zone"',
        'desk.json /0/building: must be equal to one of the allowed values: ["S","P"]',
      ],
    ],
    [
      'a writeOnly member: checked and served without it',
      'desk',
      true,
      [{ pk: 1, building: 'S', badge: 'x' }],
      [{ pk: 1, building: 'S' }],
      [],
    ],
    [
      'a repeated pk (as text: 1 and "1" are one pk)',
      'desk',
      true,
      [
        { pk: 1, building: 'S' },
        { pk: 2, building: 'S' },
        { pk: '1', building: 'P' },
      ],
      [
        { pk: 1, building: 'S' },
        { pk: 2, building: 'S' },
      ],
      ['desk.json /2/pk: repeats pk 1 of item 0'],
    ],
    [
      'items that are no objects',
      'tag',
      true,
      [null, [], 'x', { name: 'a' }],
      [{ name: 'a' }],
      [0, 1, 2].map((i) => `tag.json /${i}: an item is a JSON object`),
    ],
    [
      'no url, no pk: nothing asked of them',
      'tag',
      true,
      [{ name: 'a' }, { name: 'a' }],
      [{ name: 'a' }, { name: 'a' }],
      [],
    ],
    [
      'a url member the schema does not build is checked as any other',
      'tag',
      true,
      [{ name: 'a', url: 5 }],
      [{ name: 'a', url: 5 }],
      [],
    ],
  ])('%s', (_name, collection, stored, raw, want, problems) => {
    const found: LoadProblem[] = [];
    expect(checkItems(raw, ctxOf(collection, stored), found)).toEqual(want);
    expect(told(found)).toEqual(problems);
  });

  it('a stored item is checked in place and given back without the url it was checked with', () => {
    const item = { pk: 1, building: 'S' };
    const [out] = checkItems([item], ctxOf('desk', true), []);
    expect(out).toBe(item);
    expect(item).toEqual({ pk: 1, building: 'S' });
  });
});

describe('itemChecker: one item after another', () => {
  it('a trusted item is not validated again; its pk still is checked', () => {
    const problems: LoadProblem[] = [];
    const check = itemChecker(ctxOf('desk', true), problems);
    expect(check({ pk: 1, building: 'Z' }, 0, true)).toEqual({ pk: 1, building: 'Z' });
    expect(check({ pk: 1, building: 'S' }, 1, true)).toBeUndefined();
    expect(told(problems)).toEqual(['desk.json /1/pk: repeats pk 1 of item 0']);
  });

  it('reused: only the pk of an item taken over; the pks of those that passed, by index', () => {
    const problems: LoadProblem[] = [];
    const check = itemChecker(ctxOf('desk', true), problems);
    expect(check.reused('7', 0)).toBe(true);
    expect(check({ pk: 8, building: 'S' }, 1)).toBeDefined();
    expect(check.reused('7', 2)).toBe(false);
    expect(check({ pk: 9, building: 'Z' }, 3)).toBeUndefined();
    expect(told(problems).map((p) => p.split(':')[0])).toEqual(['desk.json /2/pk', 'desk.json /3/building']);
    expect(['7', '8', '9'].map((pk) => check.pks.get(pk))).toEqual([0, 1, -1]);
  });
});

describe('validationUrlOf: the url every item is checked with', () => {
  it.each<[string, Pick<DetailOperation, 'path' | 'pkParam'> | undefined, string]>([
    ['an item path', { path: '/api/v1/desk/{pk}', pkParam: 'pk' }, 'http://stub.invalid/api/v1/desk/1?format=api'],
    [
      'a parameter of another name',
      { path: '/api/v1/x/{slug}/', pkParam: 'slug' },
      'http://stub.invalid/api/v1/x/1/?format=api',
    ],
  ])('%s', (_name, detail, want) => {
    expect(validationUrlOf({ detail: detail as DetailOperation })).toBe(want);
  });
});
