import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { LiveCollection } from '../../../src/core/live.js';
import type { CollectionModel } from '../../../src/core/model.js';
import { LoadError, type LoadProblem } from '../../../src/load/errors.js';
import { latePrinter, loadState, type StateOptions, type StubState } from '../../../src/load/state.js';
import type { StoredDesk } from '../../../src/types.js';
import { SPEC } from '../../helpers.js';
import { smallSpec } from './helpers.js';

const desks: StoredDesk[] = Array.from({ length: 300 }, (_, i) => ({
  pk: i + 1,
  building: i % 2 === 0 ? 'S' : 'P',
  floor: 1 + (i % 5),
  number: `${100 + i}`,
  active: i % 3 !== 0,
  lead: i % 7 === 0,
  ergonomic: i % 2 === 0,
  held_today: i % 5 === 0,
}));

const itemsOf = (state: StubState) => state.model.collections.get('/api/v1/desk')?.items.items;
const json = (state: StubState) => Array.from(itemsOf(state) ?? [], (i) => i.json);
/** How many of the reloaded items are the very items of the state before (taken over, not made again). */
const kept = (reloaded: StubState, before: StubState) => {
  const was = new Set(itemsOf(before));
  return (itemsOf(reloaded) ?? []).filter((item) => was.has(item)).length;
};

describe('a state keeps nothing of the state before it', () => {
  // Before 2026-11-27 its lazy snapshot and generated items held the options it was loaded with,
  // and through them every state before it: --watch never gave a replaced fixture's memory back.
  it('the state before is collected once nothing else holds it', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const dir = await mkdtemp(path.join(tmpdir(), 'let-go-'));
    const opts = { specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 };
    await writeFile(path.join(dir, 'desk.json'), JSON.stringify(desks));
    let before: StubState | undefined = await loadState(opts);
    const gone = new WeakRef(before);
    await writeFile(path.join(dir, 'desk.json'), JSON.stringify(desks.slice(0, 3)));
    const next = await loadState({ ...opts, previous: before });
    before = undefined;
    // The next state in use: its snapshot and a generated collection's items made.
    expect(Object.keys(next.snapshot.collections).length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 0));
    gc();
    gc();
    expect(gone.deref()).toBeUndefined();
    expect(itemsOf(next)).toHaveLength(3);
  });
});

describe('a reload takes over the items that did not change, and gives what a fresh load gives', () => {
  // An item whose text is the one at its place before is taken over (no check, no new copy).
  it.each<[string, (d: StoredDesk[]) => StoredDesk[], boolean, number]>([
    ['nothing changed', (d) => d, true, 300],
    ['the first item edited', (d) => d.map((x, i) => (i === 0 ? { ...x, building: 'P' as const } : x)), true, 299],
    ['an item added at the end', (d) => [...d, { ...(d[0] as StoredDesk), pk: 1000 }], true, 300],
    ['the first item removed (a shift)', (d) => d.slice(1), true, 0],
    ['two items swapped', (d) => [d[1] as StoredDesk, d[0] as StoredDesk, ...d.slice(2)], true, 298],
    // Parsed (not canonical text), then taken over where its JSON is the same.
    ['pretty-printed (parsed, then taken over where equal)', (d) => d, false, 300],
  ])('%s', async (_name, edit, compact, keeps) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-'));
    const file = path.join(dir, 'desk.json');
    const opts = { specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 };
    await writeFile(file, JSON.stringify(desks));
    const before = await loadState(opts);
    await writeFile(file, compact ? JSON.stringify(edit(desks)) : JSON.stringify(edit(desks), null, 2));
    const reloaded = await loadState({ ...opts, previous: before });
    const fresh = await loadState(opts);
    expect(json(reloaded)).toEqual(json(fresh));
    expect(kept(reloaded, before)).toBe(keeps);
    // Lookups by pk still find every item.
    for (const item of itemsOf(reloaded) ?? [])
      expect(reloaded.model.collections.get('/api/v1/desk')?.items.byPk.get(item.pk ?? '')).toBe(item);
  });

  it('a repeated pk is still refused when the items around it are taken over', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-'));
    const file = path.join(dir, 'desk.json');
    const opts = { specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 };
    await writeFile(file, JSON.stringify(desks));
    const before = await loadState(opts);
    await writeFile(file, JSON.stringify([...desks, desks[10]]));
    await expect(loadState({ ...opts, previous: before })).rejects.toThrow(
      /at line \d+:\d+ \(\/300\/pk\): repeats pk 11 of item 10/,
    );
  });

  it('an item edited to what the model refuses (a building other than S or P) is refused, its neighbours taken over', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-'));
    const file = path.join(dir, 'desk.json');
    const opts = { specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 };
    await writeFile(file, JSON.stringify(desks));
    const before = await loadState(opts);
    await writeFile(file, JSON.stringify(desks.map((x, i) => (i === 150 ? { ...x, building: 'Z' } : x))));
    await expect(loadState({ ...opts, previous: before })).rejects.toThrow(
      /at line \d+:\d+ \(\/150\/building\): must be equal to one of the allowed values: \["S","P"\]/,
    );
  });
});

describe('a reload of a large fixture (items read from their bytes) keeps the items that did not change', () => {
  // One desk per line (~1.3 MB, many chunks): most are read the flat way (src/load/flat-items.ts).
  const BLOCK = 4096;
  const count = 3 * BLOCK + 100;
  const many: StoredDesk[] = Array.from({ length: count }, (_, i) => ({
    ...(desks[i % desks.length] as StoredDesk),
    pk: i + 1,
    number: `${100 + i}`,
  }));
  const lines = (d: StoredDesk[]) => `[\n${d.map((x) => JSON.stringify(x)).join(',\n')}\n]\n`;
  it.each<[string, (d: StoredDesk[]) => StoredDesk[], number]>([
    ['nothing changed', (d) => d, count],
    [
      'two items edited, one near the start, one further on',
      (d) => d.map((x, i) => (i === 5 || i === 2 * BLOCK + 9 ? { ...x, floor: 42 } : x)),
      count - 2,
    ],
    ['an item edited near the end', (d) => d.map((x, i) => (i === count - 3 ? { ...x, floor: 42 } : x)), count - 1],
    ['an item removed (a shift after it)', (d) => [...d.slice(0, BLOCK + 10), ...d.slice(BLOCK + 11)], BLOCK + 10],
  ])('%s', async (_name, edit, keeps) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-many-'));
    const file = path.join(dir, 'desk.json');
    const opts = { specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 };
    await writeFile(file, lines(many));
    const before = await loadState(opts);
    await writeFile(file, lines(edit(many)));
    const reloaded = await loadState({ ...opts, previous: before });
    expect(json(reloaded)).toEqual(json(await loadState(opts)));
    expect(kept(reloaded, before)).toBe(keeps);
  });
});

describe("a fixture standing in its collection's queryset is known as such when read", () => {
  // The desk list's queryset: active desks by building, floor and number (x-queryset).
  const key = (d: StoredDesk) => [d.building, String(d.floor).padStart(5, '0'), d.number].join(' ');
  const inOrder = desks.filter((d) => d.active).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  it.each<[string, StoredDesk[], boolean]>([
    ['active desks in order: the first list parses no item', inOrder, true],
    [
      'one inactive desk among them: parsed and filtered by the first list',
      [...inOrder, desks[0] as StoredDesk],
      false,
    ],
    ['out of order: parsed and sorted by the first list', [...inOrder].reverse(), false],
  ])('%s', async (_name, fixture, stands) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'in-order-'));
    await writeFile(path.join(dir, 'desk.json'), JSON.stringify(fixture));
    const state = await loadState({ specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 });
    const model = state.model.collections.get('/api/v1/desk') as CollectionModel;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const set = new LiveCollection(model).set;
      expect(parse.mock.calls.length === 0).toBe(stands);
      expect(set === model.items).toBe(stands);
      expect(set.items.map((i) => i.pk)).toEqual(inOrder.map((d) => String(d.pk)));
    } finally {
      parse.mockRestore();
    }
  });
});

/** A spec of one collection `/api/v1/room` (its item `item`, its list's 200 answer given `examples`), with the files given. */
async function roomState(
  item: Record<string, unknown>,
  files: Record<string, string> = {},
  options: Partial<StateOptions> & { examples?: Record<string, unknown> } = {},
): Promise<{ state: StubState; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'state-'));
  const doc = smallSpec({ room: { item } });
  const list = (
    doc.paths as Record<string, { get: { responses: Record<string, { content: Record<string, object> }> } }>
  )['/api/v1/room'];
  const media = list?.get.responses['200']?.content['application/json'];
  if (media && options.examples) Object.assign(media, { examples: options.examples });
  await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
  await mkdir(path.join(dir, 'fixtures'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, 'fixtures', name), text);
  const state = await loadState({
    specFile: path.join(dir, 'openapi.json'),
    fixturesDir: path.join(dir, 'fixtures'),
    seed: 1,
    defaultGenerateCount: 3,
    ...options,
  });
  return { state, dir };
}
const room = {
  type: 'object',
  required: ['pk', 'name'],
  properties: { pk: { type: 'integer' }, name: { type: 'string', minLength: 1 } },
};
const rooms = (...names: string[]) => names.map((name, i) => ({ pk: i + 1, name }));
const served = (state: StubState) => {
  const c = state.model.collections.get('/api/v1/room');
  return {
    source: c?.source,
    from: c?.from,
    names: Array.from(c?.items.items ?? [], (i) => (JSON.parse(i.json) as { name?: string }).name),
  };
};

describe("loadState: a collection's items from the first step that gives any (docs/response-selection.md)", () => {
  const envelope = (...names: string[]) => ({
    value: { count: names.length, next: null, previous: null, results: rooms(...names) },
  });
  it.each<
    [
      string,
      Record<string, unknown>,
      Record<string, string>,
      Record<string, unknown> | undefined,
      ReturnType<typeof served>,
    ]
  >([
    [
      '1. its fixture file',
      { ...room, examples: rooms('own') },
      { 'room.json': JSON.stringify(rooms('fixed')) },
      { first: envelope('example') },
      { source: 'fixture', from: expect.stringMatching(/room\.json$/) as unknown as string, names: ['fixed'] },
    ],
    [
      "2a. the 200 answer's first named example",
      { ...room, examples: rooms('own') },
      {},
      { first: envelope('one', 'two'), second: envelope('three') },
      {
        source: 'examples',
        from: expect.stringMatching(/openapi\.json example first$/) as unknown as string,
        names: ['one', 'two'],
      },
    ],
    [
      "2b. the item schema's own examples",
      { ...room, examples: rooms('own') },
      {},
      undefined,
      {
        source: 'examples',
        from: expect.stringMatching(/openapi\.json at \/components\/schemas\/room\/examples$/) as unknown as string,
        names: ['own'],
      },
    ],
    [
      '3. generated from a schema that describes fields',
      room,
      {},
      undefined,
      {
        source: 'generated',
        from: expect.stringMatching(
          /openapi\.json \(generated from #\/components\/schemas\/room, seed 1\)$/,
        ) as unknown as string,
        names: [expect.any(String), expect.any(String), expect.any(String)] as unknown as string[],
      },
    ],
    [
      '4. nothing: empty',
      { type: 'object' },
      {},
      undefined,
      { source: 'empty', from: 'nothing (no fixture, example or described field)', names: [] },
    ],
  ])('%s', async (_name, item, files, examples, want) => {
    const { state } = await roomState(item, files, examples ? { examples } : {});
    expect(served(state)).toEqual(want);
  });
});

describe('loadState: what it reads, warns of and refuses', () => {
  it('the files it read (spec, fixtures, keys), the keys, and a snapshot of what it serves', async () => {
    const { state, dir } = await roomState(
      room,
      {
        'room.json': JSON.stringify(rooms('a', 'b')),
        'tokens.json': '["t1"]',
        'sessions.json': '["s1", "s2"]',
      },
      {},
    );
    const fixtures = path.join(dir, 'fixtures');
    expect(state.files).toEqual([path.join(dir, 'openapi.json'), path.join(fixtures, 'room.json')]);
    const withKeys = await loadState({
      specFile: path.join(dir, 'openapi.json'),
      fixturesDir: fixtures,
      seed: 1,
      defaultGenerateCount: 3,
      tokensFile: path.join(fixtures, 'tokens.json'),
      sessionsFile: path.join(fixtures, 'sessions.json'),
    });
    expect(withKeys.files.slice(2)).toEqual([path.join(fixtures, 'tokens.json'), path.join(fixtures, 'sessions.json')]);
    expect([[...(withKeys.tokens ?? [])], [...(withKeys.sessions ?? [])]]).toEqual([['t1'], ['s1', 's2']]);
    expect([state.tokens, state.sessions, state.handlers]).toEqual([undefined, undefined, undefined]);
    expect(state.snapshot).toMatchObject({
      format: 'workplace-admin-stub/snapshot@1',
      collections: { '/api/v1/room': { source: 'fixture', items: rooms('a', 'b') } },
    });
    expect(Object.isFrozen(state)).toBe(true);
  });

  it.each<[string, Record<string, unknown>, Record<string, string>, string[]]>([
    ['nothing to say', room, { 'room.json': JSON.stringify(rooms('a')) }, []],
    [
      'a fixture no collection reads',
      room,
      { 'rooms.json': '[]', 'notes.txt': 'x' },
      [
        'rooms.json : no collection of the spec reads this fixture (a renamed path? name it with x-stub-fixture: rooms on the list operation)',
      ],
    ],
    [
      'writeOnly members carried by a fixture: at the first item that does',
      { ...room, properties: { ...room.properties, key: { type: 'string', writeOnly: true } } },
      {
        'room.json': JSON.stringify([
          { pk: 1, name: 'a' },
          { pk: 2, name: 'b', key: 'k' },
        ]),
      },
      [
        'room.json /1: "key": writeOnly in room, so never served (DRF never represents a write_only field): the items are served without it',
      ],
    ],
    [
      'a format Ajv does not know: placed in the spec',
      { ...room, properties: { ...room.properties, name: { type: 'string', format: 'room-name' } } },
      {},
      ['openapi.json line 96:13: format "room-name" is not one the contract\'s Ajv knows: it is not checked'],
    ],
  ])('warns: %s', async (_name, item, files, want) => {
    const { state } = await roomState(item, files);
    expect(
      state.warnings.map(
        (w) =>
          `${path.basename(w.file)} ${w.line === undefined ? w.pointer : `line ${w.line}:${w.column}`}: ${w.reason}`,
      ),
    ).toEqual(want);
  });

  it.each<[string, Record<string, unknown>, Record<string, string>, Partial<StateOptions>, string[]]>([
    [
      'a schema strict Ajv would refuse: placed in the spec',
      { ...room, requird: ['name'] },
      {},
      {},
      [expect.stringMatching(/^openapi\.json line \d+:\d+: unknown keyword "requird"/) as unknown as string],
    ],
    [
      'every fixture problem, placed in the fixture',
      room,
      { 'room.json': '[\n  {"pk": 1, "name": "a"},\n  {"pk": 2, "name": ""},\n  {"pk": 1, "name": "b"}\n]\n' },
      {},
      ['room.json line 3:13: must NOT have fewer than 1 characters', 'room.json line 4:4: repeats pk 1 of item 0'],
    ],
    [
      'a keys file and a handlers module that cannot be read',
      room,
      { 'tokens.json': '{}' },
      { tokensFile: 'TOKENS', handlersFile: 'HANDLERS' },
      [
        'absent.mjs : no such file',
        'tokens.json : must be a JSON array of token keys, such as ["9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"]',
      ],
    ],
  ])('refuses: %s', async (_name, item, files, options, want) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'state-refused-'));
    const named = {
      ...options,
      ...(options.tokensFile ? { tokensFile: path.join(dir, 'tokens.json') } : {}),
      ...(options.handlersFile ? { handlersFile: path.join(dir, 'absent.mjs') } : {}),
    };
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(smallSpec({ room: { item } }), null, 2));
    const e = await loadState({
      specFile: path.join(dir, 'openapi.json'),
      fixturesDir: dir,
      seed: 1,
      defaultGenerateCount: 3,
      ...named,
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(LoadError);
    expect(
      (e as LoadError).problems.map(
        (p) =>
          `${path.basename(p.file)} ${p.line === undefined ? p.pointer : `line ${p.line}:${p.column}`}: ${p.reason}`,
      ),
    ).toEqual(want);
  });

  it('generated items their own schema refuses are left out, each told as a late problem', async () => {
    const late: LoadProblem[] = [];
    // json-schema-faker fills in the pk that `not` forbids.
    const { state } = await roomState(
      { ...room, not: { required: ['pk'] } },
      {},
      { onLateProblem: (p) => late.push(p) },
    );
    expect(state.model.collections.get('/api/v1/room')?.items.items).toEqual([]);
    expect(late.map((p) => [p.pointer, p.reason])).toEqual([
      ['/0', 'generated item left out: must NOT be valid'],
      ['/1', 'generated item left out: must NOT be valid'],
      ['/2', 'generated item left out: must NOT be valid'],
    ]);
    const lines: string[] = [];
    latePrinter((l) => lines.push(l))(late[0] as LoadProblem);
    expect(lines).toEqual([`warning: ${late[0]?.file ?? ''} at /0: generated item left out: must NOT be valid`]);
  });

  it('final: the parsed spec files are not kept for a reload', async () => {
    const { state } = await roomState(room, {}, {});
    const { state: final } = await roomState(room, {}, { final: true });
    expect(state.spec.values.size).toBe(1);
    expect(final.spec.values.size).toBe(0);
    expect(final.spec.doc).toEqual(state.spec.doc);
  });
});
