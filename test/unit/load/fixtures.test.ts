import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryset } from '../../../src/openapi/queryset.js';
import type { LoadProblem } from '../../../src/load/errors.js';
import { type FixtureRead, readFixture } from '../../../src/load/fixtures.js';
import { v8Storage } from '../../helpers.js';
import { checkOf, parseError, smallSpec } from './helpers.js';

const DOC = smallSpec({
  room: {
    item: {
      type: 'object',
      required: ['pk', 'name', 'building'],
      properties: { pk: { type: 'integer' }, name: { type: 'string' }, building: { enum: ['S', 'P'] } },
    },
  },
  person: {
    item: {
      type: 'object',
      required: ['pk'],
      properties: { pk: { type: 'integer' }, secret: { type: 'string', writeOnly: true } },
    },
  },
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fixtures-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `text` read as the fixture of `/api/v1/<collection>`: the outcome, and its problems as `place: reason`. */
async function read(text: string, collection = 'room', opts: { previous?: FixtureRead; queryset?: Queryset } = {}) {
  const file = path.join(dir, `${collection}.json`);
  await writeFile(file, text);
  const problems: LoadProblem[] = [];
  const outcome = await readFixture(file, problems, {
    dir,
    doc: DOC,
    checkOf: checkOf(DOC, `/api/v1/${collection}`, 'room.json'),
    previous: opts.previous?.kind === 'read' ? opts.previous.set.items : undefined,
    queryset: opts.queryset,
  });
  return { outcome, problems: problems.map((p) => `${p.pointer}: ${p.reason}`) };
}

const room = (pk: number, building = 'S') => ({ pk, name: `room ${pk}`, building });

describe('readFixture: the items of a fixture file, checked, or every problem with its place', () => {
  it.each<[string, string, string[]]>([
    ['compact items', JSON.stringify([room(1), room(2)]), []],
    ['items pretty-printed', JSON.stringify([room(1), room(2)], null, 2), []],
    ['no item', '[]', []],
  ])('%s: read, every item prepared in order', async (_name, text, want) => {
    const { outcome, problems } = await read(text);
    expect(problems).toEqual(want);
    expect(outcome.kind).toBe('read');
    const items = outcome.kind === 'read' ? outcome.set.items : [];
    expect(items.map((i) => JSON.parse(i.json) as unknown)).toEqual((JSON.parse(text) as unknown[]).map((x) => x));
    expect(items.map((i) => i.pk)).toEqual((JSON.parse(text) as { pk: number }[]).map((x) => String(x.pk)));
    if (outcome.kind === 'read') {
      expect(outcome.sample).toEqual((JSON.parse(text) as unknown[])[0]);
      for (const item of items) expect(outcome.set.byPk.get(item.pk ?? '')).toBe(item);
    }
  });

  it.each<[string, string, string[]]>([
    ['not an array', '{"pk": 1}', ['line 1:1: a fixture is a JSON array of items']],
    [
      'an item that is no JSON: placed in the file where JSON.parse stopped in the item',
      `[${JSON.stringify(room(1))},\n {"pk": 2,}]`,
      [`line 2:11: invalid JSON in item 1: ${parseError('{"pk": 2,}')}`],
    ],
    [
      'an item whose JSON breaks on a later line of it: placed on that line',
      `[${JSON.stringify(room(1))},\n {"pk": 2,\n  "x": 1,}]`,
      [`line 3:10: invalid JSON in item 1: ${parseError('{"pk": 2,\n  "x": 1,}')}`],
    ],
    ['an item that is no object', `[1, ${JSON.stringify(room(2))}]`, ['/0: an item is a JSON object']],
    [
      'an item its schema refuses',
      JSON.stringify([room(1), room(2, 'Z')]),
      ['/1/building: must be equal to one of the allowed values: ["S","P"]'],
    ],
    ['a member missing', JSON.stringify([{ pk: 1, building: 'S' }]), ['/0: must have required property "name"']],
    ['a repeated pk', JSON.stringify([room(1), room(2), room(1)]), ['/2/pk: repeats pk 1 of item 0']],
    [
      'two problems, both told',
      JSON.stringify([room(1, 'Z'), { pk: 2, building: 'S' }]),
      ['/0/building: must be equal to one of the allowed values: ["S","P"]', '/1: must have required property "name"'],
    ],
  ])('%s: failed', async (_name, text, want) => {
    const { outcome, problems } = await read(text);
    expect(problems).toEqual(want);
    expect(outcome).toEqual({ kind: 'failed' });
  });
});

describe('readFixture: what is not read, and what is read over', () => {
  it("each item's JSON is a text of its own, one byte a character where its characters allow", async () => {
    // A file holding a character past U+00FF: decoded whole, every slice of it would be two-byte.
    const items = [room(1), { ...room(2), name: 'room 2 \u2014 by the window' }, room(3)];
    const { outcome, problems } = await read(JSON.stringify(items));
    expect(problems).toEqual([]);
    const kept = outcome.kind === 'read' ? outcome.set.items : [];
    expect(kept.map((i) => i.json)).toEqual(items.map((i) => JSON.stringify(i)));
    expect(kept.map((i) => v8Storage(i.json))).toEqual(['one-byte', 'two-byte', 'one-byte']);
  });

  it('a file that does not exist is missing, no problem', async () => {
    const problems: LoadProblem[] = [];
    const outcome = await readFixture(path.join(dir, 'nowhere.json'), problems, {
      dir,
      doc: DOC,
      checkOf: checkOf(DOC, '/api/v1/room', 'nowhere.json'),
    });
    expect(outcome).toEqual({ kind: 'missing' });
    expect(problems).toEqual([]);
  });

  it('a file outside the fixtures folder is refused, not read', async () => {
    await writeFile(path.join(dir, 'room.json'), JSON.stringify([room(1)]));
    const problems: LoadProblem[] = [];
    const outcome = await readFixture(path.join(dir, 'room.json'), problems, {
      dir: path.join(dir, 'inner'),
      doc: DOC,
      checkOf: checkOf(DOC, '/api/v1/room', 'room.json'),
    });
    expect(outcome).toEqual({ kind: 'failed' });
    expect(problems.map((p) => [p.pointer, p.reason.split(' (')[0]])).toEqual([['', 'outside the fixtures folder']]);
  });

  it('writeOnly members are served without them; the first item carrying one is named', async () => {
    const { outcome, problems } = await read(
      JSON.stringify([{ pk: 1 }, { pk: 2, secret: 'a' }, { pk: 3, secret: 'b' }]),
      'person',
    );
    expect(problems).toEqual([]);
    expect(outcome.kind === 'read' && outcome.carried).toEqual({ index: 1, names: ['secret'] });
    expect(outcome.kind === 'read' && outcome.set.items.map((i) => i.json)).toEqual([
      '{"pk":1}',
      '{"pk":2}',
      '{"pk":3}',
    ]);
  });

  // In the first chunk every item is parsed (the first sets the shape); from the second chunk on
  // (after 64 KiB), compact rooms are read from their bytes and other canonical items taken as
  // they are, unparsed.
  it.each<[string, string, (items: unknown[]) => string, number]>([
    ['compact items, first chunk (parsed)', 'room', (items) => JSON.stringify(items), 0],
    ['compact items, second chunk (read from their bytes)', 'room', (items) => JSON.stringify(items), 1800],
    ['items pretty-printed (parsed)', 'room', (items) => JSON.stringify(items, null, 2), 1800],
    ['compact items with writeOnly members, second chunk (taken unparsed)', 'person', JSON.stringify, 3000],
  ])(
    '%s: an item whose text is the one at its place before is taken over as it is',
    async (_name, collection, write, lead) => {
      const shape = (r: ReturnType<typeof room>) => (collection === 'room' ? r : { pk: r.pk });
      const first = Array.from({ length: lead }, (_, i) => shape(room(1000 + i)));
      const items = [...first, ...[room(1), room(2), room(3), room(4)].map(shape)];
      const before = (await read(write(items), collection)).outcome;
      const edited = items.map((r, i) => (i === lead + 2 ? { ...r, pk: 30 } : r));
      const { outcome, problems } = await read(write(edited), collection, { previous: before });
      expect(problems).toEqual([]);
      const was = before.kind === 'read' ? before.set.items : [];
      const now = outcome.kind === 'read' ? outcome.set.items : [];
      expect(now.slice(0, lead).every((item, i) => item === was[i])).toBe(true);
      expect(now.slice(lead).map((item, i) => item === was[lead + i])).toEqual([true, true, false, true]);
      expect(now.slice(lead).map((item) => item.pk)).toEqual(['1', '2', '30', '4']);
      expect(outcome.kind === 'read' && outcome.set.byPk.get('30')).toBe(now[lead + 2]);
    },
  );

  it('an item taken over still counts for repeated pks', async () => {
    const before = (await read(JSON.stringify([room(1), room(2)]))).outcome;
    const { problems } = await read(JSON.stringify([room(1), room(2), room(1)]), 'room', { previous: before });
    expect(problems).toEqual(['/2/pk: repeats pk 1 of item 0']);
  });

  it('a fixture stream stops between chunks when its signal is aborted (the spec turned out invalid)', async () => {
    const file = path.join(dir, 'desk.json');
    await writeFile(file, JSON.stringify(Array.from({ length: 5000 }, (_, pk) => ({ pk, name: `desk ${pk}` }))));
    const stop = new AbortController();
    let items = 0;
    const read = readFixture(file, [], {
      dir,
      signal: stop.signal,
      doc: {},
      // A check that counts the items (and aborts at the tenth), as the loader's checks each.
      checkOf: () => ({
        shape: { fields: ['pk', 'name'], writeOnly: [], withUrl: false, lookup: 'pk', pkParam: 'pk' },
        ctx: {
          ajv: {
            validator: () =>
              Object.assign(() => (++items === 10 ? stop.abort(new Error('invalid spec')) : 0, true), { errors: null }),
          },
          list: { itemPointer: '/x' },
          detail: undefined,
          withUrl: false,
          lookup: 'pk',
          file,
          stored: true,
        } as never,
      }),
    });
    await expect(read).rejects.toThrow('invalid spec');
    // The chunk under way is finished, nothing after it is read.
    expect(items).toBeGreaterThanOrEqual(10);
    expect(items).toBeLessThan(5000);
  });
});

describe('readFixture: whether the items stand in their queryset (filter and ordering), followed as read', () => {
  const queryset = (filter: Record<string, unknown> | undefined, ...ordering: string[]): Queryset => ({
    filter,
    ordering: ordering.map((f) => ({ field: f.replace(/^-/, ''), desc: f.startsWith('-') })),
    anonymous: 'all',
    anonymousModel: undefined,
  });
  const byNameThenPkDesc = queryset({ building: 'S' }, 'name', '-pk');
  /** The oracle: every room in building S, by name (code points), then by pk descending. */
  const stands = (rooms: { pk: number; name: string; building: string }[]) =>
    rooms.every((r) => r.building === 'S') &&
    rooms.every((r, i) => {
      const p = rooms[i - 1];
      if (p === undefined) return true;
      const [a, b] = [[...p.name].map((c) => c.codePointAt(0)), [...r.name].map((c) => c.codePointAt(0))];
      for (let k = 0; k < Math.min(a.length, b.length); k++)
        if (a[k] !== b[k]) return (a[k] as number) < (b[k] as number);
      return a.length !== b.length ? a.length < b.length : p.pk >= r.pk;
    });
  const rooms = fc
    .uniqueArray(
      fc.record({
        pk: fc.integer({ min: -5, max: 40 }),
        name: fc.constantFrom('a', 'b', 'B', 'ab', 'b\u00e9', '\ud83d\ude00', 'a b'),
        building: fc.constantFrom('S', 'S', 'S', 'P'),
      }),
      { selector: (r) => r.pk, maxLength: 8 },
    )
    .chain((rs) =>
      fc.constantFrom(
        rs,
        [...rs].sort((x, y) => (stands([x, y]) ? -1 : stands([y, x]) ? 1 : 0)),
      ),
    );

  it.each<[string, (items: unknown[]) => string, boolean]>([
    ['compact (read from their bytes where they can be)', (items) => JSON.stringify(items), false],
    ['pretty-printed (parsed)', (items) => JSON.stringify(items, null, 2), false],
    ['pretty-printed, read over the same file (items taken over)', (items) => JSON.stringify(items, null, 2), true],
    ['compact, read over the same file (items taken over)', (items) => JSON.stringify(items), true],
  ])('%s: as the oracle says (property)', async (_name, write, again) => {
    // The items at stake come after a chunk's worth (64 KiB) of rooms in order: flat items are
    // read from their bytes from the second chunk on (the first item sets the shape).
    const lead = Array.from({ length: 1800 }, (_, i) => ({ pk: 100_000 - i, name: '', building: 'S' }));
    let seen = [0, 0];
    await fc.assert(
      fc.asyncProperty(rooms, async (rs) => {
        const text = write([...lead, ...rs.map((r) => ({ ...r, name: JSON.parse(`"${r.name}"`) as string }))]);
        const opts = { queryset: byNameThenPkDesc };
        const first = await read(text, 'room', opts);
        const { outcome, problems } = again ? await read(text, 'room', { ...opts, previous: first.outcome }) : first;
        expect(problems).toEqual([]);
        const want = stands(rs.map((r) => ({ ...r, name: JSON.parse(`"${r.name}"`) as string })));
        expect(outcome.kind === 'read' && outcome.inQuerysetOrder).toBe(want);
        seen = want ? [seen[0] as number, (seen[1] as number) + 1] : [(seen[0] as number) + 1, seen[1] as number];
      }),
      { numRuns: 60, seed: 29 },
    );
    // Both answers were seen.
    expect(seen.every((n) => n > 10)).toBe(true);
  });

  it('items taken over unparsed on a reload are followed too', async () => {
    // No flat way for an item with writeOnly members: from the second chunk on, items are taken over.
    const persons = [...Array.from({ length: 6000 }, (_, i) => ({ pk: 100_000 - i })), { pk: 1 }, { pk: 2 }];
    const text = JSON.stringify(persons);
    const opts = { queryset: queryset(undefined, '-pk') };
    const first = await read(text, 'person', opts);
    const again = await read(text, 'person', { ...opts, previous: first.outcome });
    const last = ({ outcome }: typeof first) => (outcome.kind === 'read' ? outcome.set.items.at(-1) : undefined);
    expect(last(again)).toBe(last(first));
    expect([first, again].map(({ outcome }) => outcome.kind === 'read' && outcome.inQuerysetOrder)).toEqual([
      false,
      false,
    ]);
  });

  it('an ordering on a writeOnly field: the served items lack it, so they tie, as the core sees them', async () => {
    const persons = JSON.stringify([
      { pk: 1, secret: 'b' },
      { pk: 2, secret: 'a' },
    ]);
    const { outcome } = await read(persons, 'person', { queryset: queryset(undefined, 'secret') });
    expect(outcome.kind === 'read' && outcome.inQuerysetOrder).toBe(true);
    const { outcome: byPk } = await read(persons, 'person', { queryset: queryset(undefined, '-pk') });
    expect(byPk.kind === 'read' && byPk.inQuerysetOrder).toBe(false);
  });
});
