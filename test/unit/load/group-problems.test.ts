import { describe, expect, it } from 'vitest';
import type { LoadProblem } from '../../../src/load/errors.js';
import { groupProblems } from '../../../src/load/group-problems.js';

const items = (n: number, file: string, rest: string, reason: string): LoadProblem[] =>
  Array.from({ length: n }, (_, i) => ({ file, pointer: `/${i}${rest}`, reason }));

describe('the same problem over many items is one line', () => {
  it.each<[string, LoadProblem[], string[]]>([
    [
      'a missing field over 45 items',
      items(45, 'fixtures/desk.json', '', 'must have required property "zone"'),
      ['45 items of fixtures/desk.json lack `zone`: /0, /1, /2 … and 42 more'],
    ],
    [
      'a member of each item',
      items(4, 'fixtures/desk.json', '/floor', 'must be integer'),
      ['4 items of fixtures/desk.json at /…/floor: must be integer: /0/floor, /1/floor, /2/floor … and 1 more'],
    ],
    [
      'two items of an example, none elided',
      items(2, 'openapi.yaml example twoDesks', '', 'must have required property "zone"'),
      ['2 items of openapi.yaml example twoDesks lack `zone`: /0, /1'],
    ],
    [
      'one item, as it is',
      items(1, 'fixtures/desk.json', '', 'must have required property "zone"'),
      ['fixtures/desk.json at /0: must have required property "zone"'],
    ],
    [
      'problems of no item, or of other files and reasons, apart and in order',
      [
        { file: 'a.yaml', pointer: '/paths', reason: 'x' },
        ...items(2, 'f.json', '', 'r'),
        { file: 'a.yaml', pointer: '/paths', reason: 'x' },
        { file: 'g.json', pointer: '/0', reason: 'r' },
      ],
      ['a.yaml at /paths: x', '2 items of f.json: r: /0, /1', 'a.yaml at /paths: x', 'g.json at /0: r'],
    ],
  ])('%s', (_name, given, want) => {
    expect(groupProblems(given)).toEqual(want);
  });
});
