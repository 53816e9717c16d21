import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadProblem } from '../../../src/load/errors.js';
import { folderOf } from '../../../src/load/read-confined.js';
import { placeInFixtures, placeInSources } from '../../../src/load/source-place.js';

// A spec of three files, as written (placeInSources reads only their texts).
const DIR = path.join(process.cwd(), 'spec-as-written');
const ROOT = path.join(DIR, 'openapi.yaml');
const texts = new Map([
  [
    ROOT,
    [
      'openapi: 3.1.0',
      'paths:',
      '  /api/v1/desk:',
      '    get:',
      '      responses:',
      "        '200': {$ref: 'responses.yaml#/DeskList'}",
      '  /api/v1/room:',
      '    $ref: room.yaml',
      'tags:',
      '  - name: a',
      '  - name: b',
      '',
    ].join('\n'),
  ],
  [
    path.join(DIR, 'responses.yaml'),
    [
      'Other: {}',
      'DeskList:',
      '  description: desks',
      '  content:',
      '    application/json: {schema: {type: object}}',
      '',
    ].join('\n'),
  ],
  [path.join(DIR, 'room.yaml'), ['get:', '  summary: rooms', ''].join('\n')],
]);
const spec = { rootFile: ROOT, texts };
const at = (pointer: string, rest: Partial<LoadProblem> = {}): LoadProblem => ({
  file: 'spec-as-written/openapi.yaml',
  pointer,
  reason: 'r',
  ...rest,
});

describe('placeInSources: a problem of the bundled document, where the designer wrote it', () => {
  it.each<[string, LoadProblem, LoadProblem]>([
    ['a member of the root: its key', at('/tags/1/name'), at('/tags/1/name', { line: 11, column: 5 })],
    ['a key of the root', at('/paths'), at('/paths', { line: 2, column: 1 })],
    [
      'the whole of an inlined file: its start',
      at('/paths/~1api~1v1~1room'),
      { file: 'spec-as-written/room.yaml', pointer: '', reason: 'r', line: 1, column: 1 },
    ],
    [
      'through a $ref with a fragment: in that file',
      at('/paths/~1api~1v1~1desk/get/responses/200/content/application~1json'),
      {
        file: 'spec-as-written/responses.yaml',
        pointer: '/DeskList/content/application~1json',
        reason: 'r',
        line: 5,
        column: 5,
      },
    ],
    [
      'through a $ref to a whole file: in that file',
      at('/paths/~1api~1v1~1room/get/summary'),
      { file: 'spec-as-written/room.yaml', pointer: '/get/summary', reason: 'r', line: 2, column: 3 },
    ],
    [
      'what the $ref names, whole',
      at('/paths/~1api~1v1~1desk/get/responses/200'),
      { file: 'spec-as-written/responses.yaml', pointer: '/DeskList', reason: 'r', line: 2, column: 1 },
    ],
    ['a place that is not written: as it is', at('/paths/~1api~1v1~1desk/post'), at('/paths/~1api~1v1~1desk/post')],
    ['no pointer: as it is', at(''), at('')],
    ['a line:col place: as it is', at('line 3:1'), at('line 3:1')],
    ['placed already: as it is', at('/tags', { line: 1, column: 1 }), at('/tags', { line: 1, column: 1 })],
    [
      'a problem of another file: as it is',
      { file: 'fixtures/desk.json', pointer: '/0', reason: 'r' },
      { file: 'fixtures/desk.json', pointer: '/0', reason: 'r' },
    ],
  ])('%s', (_name, problem, want) => {
    expect(placeInSources([problem], spec)).toEqual([want]);
  });

  it('a text that is not given (a file not read): as it is', () => {
    expect(placeInSources([at('/tags/0')], { rootFile: ROOT, texts: new Map() })).toEqual([at('/tags/0')]);
  });
});

describe('placeInFixtures: a problem of a fixture, given its line', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'place-'));
    file = path.join(dir, 'desk.json');
    await writeFile(file, '[\n  {"pk": 1, "building": "S"},\n  {"pk": 2,\n   "building": "Z"}\n]\n');
    await writeFile(path.join(dir, 'broken.json'), '[{"pk": 1},');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each<[string, (file: string) => LoadProblem, Partial<LoadProblem>]>([
    ['a member of an item: its key', (f) => ({ file: f, pointer: '/1/building', reason: 'r' }), { line: 4, column: 4 }],
    ['an item: its start', (f) => ({ file: f, pointer: '/0', reason: 'r' }), { line: 2, column: 3 }],
    ['no such item: as it is', (f) => ({ file: f, pointer: '/7', reason: 'r' }), {}],
    ['no pointer: as it is', (f) => ({ file: f, pointer: '', reason: 'r' }), {}],
    ['placed already: as it is', (f) => ({ file: f, pointer: '/0', reason: 'r', line: 9, column: 9 }), {}],
    ['no .json file: as it is', (f) => ({ file: `${f}.yaml`, pointer: '/0', reason: 'r' }), {}],
    [
      'a file that does not parse whole: placed as far as it reads',
      (f) => ({ file: path.join(path.dirname(f), 'broken.json'), pointer: '/0/pk', reason: 'r' }),
      { line: 1, column: 3 },
    ],
  ])('%s', async (_name, problemOf, placed) => {
    const problem = problemOf(file);
    expect(await placeInFixtures([problem], await folderOf(dir, 'the fixtures folder'))).toEqual([
      { ...problem, ...placed },
    ]);
  });

  it('a file outside the folder is not read: as it is', async () => {
    const problem = { file, pointer: '/0', reason: 'r' };
    expect(await placeInFixtures([problem], await folderOf(path.join(dir, 'other'), 'x'))).toEqual([problem]);
  });
});
