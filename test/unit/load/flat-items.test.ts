import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ContractAjv } from '../../../src/openapi/ajv.js';
import { shapeOf } from '../../../src/core/model.js';
import { readOperations } from '../../../src/openapi/operations.js';
import { isObject } from '../../../src/openapi/pointer.js';
import { type PreparedItem, prepareItem, prepareItemFromText } from '../../../src/core/prepared-items.js';
import { FlatItems, flatItemMatcher } from '../../../src/load/flat-items.js';
import { type FlatTake, isStreamed, ItemScanner, type StreamedItem } from '../../../src/load/item-stream.js';
import { type CheckContext, itemChecker } from '../../../src/load/items.js';
import { loadSpec } from '../../../src/load/spec.js';
import { loadState } from '../../../src/load/state.js';
import { StubCore } from '../../../src/core/answer.js';
import { coreOptions } from '../../../src/server/app.js';
import { resolveConfig } from '../../../src/server/config.js';
import { settled, SPEC } from '../../helpers.js';

/**
 * Flat items are read from their bytes (load/flat-items.ts) instead of parsed: whatever the item,
 * what that way takes must be exactly what the parsed way makes of it, and it must take nothing the
 * parsed way refuses. The parsed way here is the loader's own (scanner, JSON.parse, itemChecker,
 * prepareItem): the reference each item is held to.
 */

type Doc = Record<string, unknown>;
let bundled: Doc;
beforeAll(async () => {
  bundled = (await loadSpec(SPEC)).doc as Doc;
});

interface Setup {
  readonly ctx: CheckContext;
  readonly fields: readonly string[];
  readonly matcher: FlatItems | undefined;
}

/** The desk collection of `doc` as the loader sets it up for a stored fixture. */
function setup(doc: Doc): Setup {
  const { operations } = readOperations(doc, 'openapi.yaml');
  const list = operations.lists.find((l) => l.path === '/api/v1/desk');
  if (!list) throw new Error('no desk list');
  const shape = shapeOf(doc, operations, list);
  const ctx: CheckContext = {
    ajv: new ContractAjv(doc),
    list,
    detail: operations.detailOf.get(list.path),
    withUrl: shape.withUrl,
    lookup: shape.lookup,
    file: 'desk.json',
    stored: true,
  };
  return { ctx, fields: shape.fields, matcher: flatItemMatcher(doc, ctx, shape.fields, KEPT) };
}

/** Members whose values the matcher gives of each item (a queryset's fields): described ones, and one not. */
const KEPT = ['active', 'building', 'floor', 'number', 'pk', 'x', 'constructor'];

/** The desk schema of a copy of the bundled spec, edited by `edit`. */
function withDesk(edit: (desk: Record<string, unknown>) => void): Doc {
  const doc = structuredClone(bundled);
  const schemas = (doc.components as Doc).schemas as Doc;
  edit(schemas.Desk as Record<string, unknown>);
  return doc;
}

/** What the parsed way makes of one item's text: the prepared item, or undefined (refused). */
function parsedWay(text: string, { ctx, fields }: Setup): PreparedItem | undefined {
  const scanner = new ItemScanner(64);
  try {
    scanner.feed(Buffer.from(`[${text}]`));
    scanner.end();
  } catch {
    return undefined;
  }
  const item = scanner.out[0];
  if (scanner.out.length !== 1 || item === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(item.text);
  } catch {
    return undefined;
  }
  const options = { fields, withUrl: ctx.withUrl, pkField: ctx.lookup };
  const prepared = isObject(value)
    ? item.canonical
      ? prepareItemFromText(value, item.text, options)
      : prepareItem(value, options)
    : undefined;
  const problems: unknown[] = [];
  if (itemChecker(ctx, problems as never)(value, 0) === undefined || prepared === undefined) return undefined;
  return prepared;
}

/** What the flat way takes of it: the item's end, the prepared item (or undefined), and its kept members. */
function flatWay(
  text: string,
  matcher: FlatItems,
): { end: number; item: PreparedItem | undefined; kept: unknown[] } | undefined {
  const bytes = Buffer.from(text);
  const end = matcher.scan(bytes, 0, bytes.length);
  if (end === -1) return undefined;
  const kept = ['before'];
  matcher.pushKept(bytes, kept);
  return { end, item: matcher.prepare(bytes, 0, end), kept };
}

/** Holds the flat way to the parsed way on `text`; answers whether the flat way took it. */
function agree(text: string, s: Setup): boolean {
  const flat = flatWay(text, s.matcher as FlatItems);
  if (flat === undefined || flat.item === undefined) return false;
  // The scanner reads on from the item's end: the same item the parsed way sees there.
  const taken = Buffer.from(text).subarray(0, flat.end).toString();
  expect({ text: taken, item: flat.item }).toEqual({ text: taken, item: parsedWay(taken, s) });
  // The kept members' values are the parsed item's (a member it lacks read as from it), pushed on.
  const parsed = JSON.parse(taken) as Record<string, unknown>;
  expect(flat.kept).toStrictEqual(['before', ...KEPT.map((k) => parsed[k])]);
  return true;
}

const FIELDS = ['url', 'pk', 'building', 'floor', 'number', 'active', 'lead', 'ergonomic', 'held_today'];
const RAW_VALUES = [
  '1',
  '0',
  '-1',
  '12',
  '-0',
  '01',
  '-',
  '1.0',
  '1.5',
  '1e3',
  '1E3',
  '-1e-3',
  '12345678901234567890',
  '999999999999999',
  '9007199254740993',
  '100000000000000',
  '"S"',
  '"P"',
  '"s"',
  '"B"',
  '"b"',
  '"Z"',
  '"BB"',
  '""',
  '" "',
  '"12A"',
  '"A12"',
  '"12"',
  '"0"',
  '"1234567890"',
  '"12345678901"',
  '"1/2"',
  '"1.2"',
  '"\\u0042"',
  '"\\"',
  '"é"',
  '"\u2028"',
  '"a\tb"',
  '"\u0000"',
  '"x',
  'true',
  'false',
  'null',
  'tru',
  'nul',
  'fals',
  'truex',
  '[]',
  '{}',
  '[1]',
  '{"a":1}',
  '"https://x.example/api/v1/desk/1"',
];
const KEYS = [...FIELDS, 'x', 'pkk', 'p', 'Pk', 'held', 'url '];

/** A desk as written in a compact fixture (valid for the bundled schema: the deployment's model). */
const desk = fc.record({
  pk: fc.integer({ min: 0, max: 999_999_999_999 }),
  building: fc.constantFrom('S', 'P'),
  floor: fc.integer({ min: 0, max: 32767 }),
  number: fc.stringMatching(/^[0-9]{1,7}[A-Za-z]{0,3}$/),
  active: fc.boolean(),
  lead: fc.boolean(),
  ergonomic: fc.boolean(),
  held_today: fc.boolean(),
});

/** Any text of a would-be item: members named from the fields and others, raw values good and bad, white space and cuts. */
const rawItem = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.constantFrom(...KEYS),
        fc.oneof(
          fc.constantFrom(...RAW_VALUES),
          fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v)),
        ),
      ),
      { maxLength: 11 },
    ),
    fc.constantFrom('', ' ', '\n'),
    fc.nat(200),
    fc.boolean(),
  )
  .map(([members, space, cut, whole]) => {
    const text = `{${members.map(([k, v]) => `"${k}":${space}${v}`).join(',')}}`;
    return whole ? text : text.slice(0, cut);
  });

/** Every member of `item` given every raw value of the pool, in its place and repeated after it: answers how many were taken. */
function sweep(item: Record<string, unknown>, s: Setup): number {
  let taken = 0;
  const members = Object.entries(item).map(([k, v]) => `"${k}":${JSON.stringify(v)}`);
  for (let i = 0; i < members.length; i++)
    for (const raw of [...RAW_VALUES, ...Array.from({ length: 32 }, (_, c) => `"a${String.fromCharCode(c)}"`)]) {
      const name = Object.keys(item)[i] as string;
      const replaced = members.map((m, j) => (j === i ? `"${name}":${raw}` : m));
      const repeated = [...members.slice(0, i + 1), `"${name}":${raw}`, ...members.slice(i + 1)];
      for (const text of [`{${replaced.join(',')}}`, `{${repeated.join(',')}}`]) if (agree(text, s)) taken++;
    }
  return taken;
}

/** A valid desk with one member's raw value replaced, removed, moved, repeated, or one added. */
const mutated = fc
  .tuple(
    desk,
    fc.nat(8),
    fc.constantFrom(...RAW_VALUES),
    fc.constantFrom('replace', 'remove', 'repeat', 'swap', 'add', 'space'),
  )
  .map(([d, at, raw, how]) => {
    const members = Object.entries(d).map(([k, v]) => [k, JSON.stringify(v)] as [string, string]);
    const i = at % members.length;
    const m = members[i] as [string, string];
    if (how === 'replace') m[1] = raw;
    else if (how === 'remove') members.splice(i, 1);
    else if (how === 'repeat') members.push([m[0], raw]);
    else if (how === 'swap' && i + 1 < members.length)
      [members[i], members[i + 1]] = [members[i + 1] as [string, string], m];
    else if (how === 'add') members.splice(i, 0, [KEYS[(i * 7) % KEYS.length] as string, raw]);
    else if (how === 'space') m[1] = ` ${m[1]}`;
    return `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`;
  });

describe('flat items read from their bytes', () => {
  it('takes every valid compact desk, as the parsed way makes it (property)', () => {
    const s = setup(bundled);
    expect(s.matcher).toBeDefined();
    fc.assert(
      fc.property(desk, (d) => {
        expect(agree(JSON.stringify(d), s)).toBe(true);
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it('takes nothing the parsed way refuses, and makes what it makes of the rest (property)', () => {
    const s = setup(bundled);
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(mutated, rawItem), (text) => {
        if (agree(text, s)) taken++;
      }),
      { numRuns: 4000, seed: 12 },
    );
    // Both kinds were seen: some taken, most not.
    expect(taken).toBeGreaterThan(50);
    expect(
      sweep(
        {
          pk: 7,
          building: 'P',
          floor: 2,
          number: '12A',
          active: true,
          lead: false,
          ergonomic: true,
          held_today: false,
        },
        s,
      ),
    ).toBeGreaterThan(20);
  });

  it("gives a queryset's values of each item taken: one it lacks as if parsed, after an item that had it", () => {
    const s = setup(
      withDesk((desk) => {
        desk.required = ['url', 'pk', 'building'];
        (desk.properties as Record<string, unknown>).floor = { type: 'integer' };
      }),
    );
    const d = { pk: 7, building: 'S', floor: -3, number: '12A', active: true };
    expect(agree(JSON.stringify(d), s)).toBe(true);
    expect(agree(JSON.stringify({ pk: 8, building: 'P' }), s)).toBe(true);
    expect(flatWay(JSON.stringify(d), s.matcher as FlatItems)?.kept).toStrictEqual([
      'before',
      true,
      'S',
      -3,
      '12A',
      7,
      undefined,
      Object,
    ]);
  });

  it('follows a schema a designer edited: enums, bounds, unions, string pks, no url (property)', () => {
    type Desk = typeof desk extends fc.Arbitrary<infer D> ? D : never;
    // Each edit, and a desk made valid for it (so that the flat way has items to take).
    const variants: [string, (desk: Record<string, unknown>) => void, (d: Desk) => unknown][] = [
      [
        'bounds, an enum, a union with null, a const',
        (desk) => {
          const p = desk.properties as Record<string, Record<string, unknown>>;
          p.building = { type: 'string', enum: ['A', 'B'] };
          p.floor = { type: 'integer', minimum: 0, maximum: 50 };
          p.number = { type: ['string', 'null'], maxLength: 3 };
          p.lead = { const: true };
          desk.required = ['url', 'pk', 'building', 'floor'];
        },
        (d) => ({
          ...d,
          building: d.building === 'S' ? 'A' : 'B',
          floor: Math.abs(d.floor) % 51,
          number: d.number.slice(0, 3),
          lead: true,
        }),
      ],
      [
        'a string pk with a pattern',
        (desk) => {
          (desk.properties as Record<string, unknown>).pk = { type: 'string', pattern: '^[0-9A-Z]+$' };
        },
        (d) => ({ ...d, pk: String(d.pk) }),
      ],
      [
        'no url (items served as they stand)',
        (desk) => {
          delete (desk.properties as Record<string, unknown>).url;
          desk.required = (desk.required as string[]).filter((r) => r !== 'url');
        },
        (d) => d,
      ],
      [
        'members of any type, integers as numbers',
        (desk) => {
          const p = desk.properties as Record<string, Record<string, unknown>>;
          p.floor = { type: 'number', description: 'any number' };
          p.number = {};
          p.held_today = true as never;
        },
        (d) => d,
      ],
    ];
    for (const [name, edit, valid] of variants) {
      const s = setup(withDesk(edit));
      expect(s.matcher, name).toBeDefined();
      let taken = 0;
      fc.assert(
        fc.property(
          fc.oneof(
            desk.map((d) => JSON.stringify(valid(d))),
            mutated,
            rawItem,
          ),
          (text) => {
            if (agree(text, s)) taken++;
          },
        ),
        { numRuns: 1500, seed: 13 },
      );
      expect(taken, name).toBeGreaterThan(100);
      expect(
        sweep(
          valid({
            pk: 7,
            building: 'P',
            floor: 2,
            number: '12A',
            active: true,
            lead: false,
            ergonomic: true,
            held_today: false,
          }) as Record<string, unknown>,
          s,
        ),
        name,
      ).toBeGreaterThan(20);
    }
  });

  it('in the scanner, at any chunk size: the same items, each taken one as the parsed way makes it (property)', () => {
    const s = setup(bundled);
    const items = fc.array(
      fc.oneof(
        desk.map((d) => JSON.stringify(d)),
        mutated,
      ),
      { minLength: 1, maxLength: 8 },
    );
    let taken = 0;
    fc.assert(
      fc.property(items, fc.integer({ min: 1, max: 160 }), fc.constantFrom(',', ',\n', ' , '), (texts, size, comma) => {
        const bytes = Buffer.from(`[${texts.join(comma)}]`);
        const matcher = s.matcher as FlatItems;
        // What the loader's FlatTake does, less the reuse of a state before.
        const take: FlatTake<PreparedItem> = {
          scan: (b, start, limit) => matcher.scan(b, start, limit),
          take: (b, start, end) => matcher.prepare(b, start, end),
        };
        const read = (flat: boolean) => {
          const scanner = new ItemScanner<PreparedItem>(64, () => (flat ? take : undefined));
          const out: (StreamedItem | PreparedItem)[] = [];
          try {
            for (let i = 0; i < bytes.length; i += size) {
              scanner.feed(bytes.subarray(i, i + size));
              // (The items' bytes stay: the chunks are views of one buffer, never written again.)
              out.push(...scanner.out.splice(0));
            }
            scanner.end();
          } catch (e) {
            return { out, error: String(e) };
          }
          return { out, error: undefined };
        };
        const flat = read(true);
        const plain = read(false);
        expect(flat.error).toBe(plain.error);
        expect(flat.out.length).toBe(plain.out.length);
        // Item by item: taken as the parsed way makes it, or the very item the plain scan gives.
        flat.out.forEach((entry, k) => {
          const item = plain.out[k] as StreamedItem;
          if (isStreamed(entry))
            expect({ text: entry.text, line: entry.line, col: entry.col, index: entry.index }).toEqual({
              text: item.text,
              line: item.line,
              col: item.col,
              index: item.index,
            });
          else {
            taken++;
            expect(entry).toEqual(parsedWay(item.text, s));
          }
        });
      }),
      { numRuns: 1500, seed: 14 },
    );
    expect(taken).toBeGreaterThan(100);
  });

  it('stands aside for a schema that asks more of an item than its members one by one', () => {
    const edits: [string, (desk: Record<string, unknown>) => void][] = [
      ['minProperties', (desk) => void (desk.minProperties = 3)],
      ['patternProperties', (desk) => void (desk.patternProperties = { '^p': { type: 'string' } })],
      ['allOf', (desk) => void (desk.allOf = [{ required: ['lead'] }])],
      ['dependentRequired', (desk) => void (desk.dependentRequired = { lead: ['ergonomic'] })],
      [
        'url after other members',
        (desk) => void (desk.properties = Object.fromEntries(Object.entries(desk.properties as object).reverse())),
      ],
      ['required naming no member', (desk) => void (desk.required = [...(desk.required as string[]), 'wing'])],
    ];
    for (const [name, edit] of edits) expect(setup(withDesk(edit)).matcher, name).toBeUndefined();
  });
});

describe('pks are unique as texts, whichever way they are told apart', () => {
  // Ascending integers (the common fixture) are told apart without a map; any other pk with one.
  it('refuses exactly the repeated texts, and names the first item that had each (property)', () => {
    const s = setup(bundled);
    const pool = [
      '0',
      '1',
      '2',
      '3',
      '10',
      '11',
      '01',
      '-0',
      '-1',
      '-2',
      '1.0',
      '1e1',
      '+1',
      ' 1',
      'a',
      '9007199254740991',
      '9007199254740992',
      '9007199254740993',
      '99999999999999999',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...pool), fc.integer({ min: -5, max: 40 }).map(String)), { maxLength: 30 }),
        (pks) => {
          const problems: { pointer: string; reason: string }[] = [];
          const check = itemChecker(s.ctx, problems as never);
          const first = new Map<string, number>();
          const expected: string[] = [];
          pks.forEach((pk, index) => {
            const earlier = first.get(pk);
            expect(check.reused(pk, index)).toBe(earlier === undefined);
            if (earlier === undefined) first.set(pk, index);
            else expected.push(`/${index}/pk: repeats pk ${pk} of item ${earlier}`);
          });
          expect(problems.map((p) => `${p.pointer}: ${p.reason}`)).toEqual(expected);
        },
      ),
      { numRuns: 2000, seed: 15 },
    );
  });
});

describe('a fixture read the flat way gives what the parsed way gives', () => {
  afterEach(() => vi.restoreAllMocks());
  // Large enough for many chunks (the first is always parsed: the flat way needs a first item).
  const desks = Array.from({ length: 3000 }, (_, i) => ({
    pk: i + 1,
    building: 'SP'[i % 2] ?? 'S',
    floor: 1 + (i % 5),
    number: `${100 + i}${i % 3 === 0 ? 'B' : ''}`,
    active: i % 3 !== 0,
    lead: i % 7 === 0,
    ergonomic: i % 2 === 0,
    held_today: i % 5 === 0,
  }));
  const lines = (items: readonly unknown[]) => `[\n${items.map((d) => JSON.stringify(d)).join(',\n')}\n]\n`;

  /** Loads `text` as the desk fixture in `dir`, the flat way or (its scan refusing every item) the parsed way. */
  async function load(
    dir: string,
    text: string,
    flat: boolean,
  ): Promise<{ items?: PreparedItem[]; error?: string; taken: number }> {
    await writeFile(path.join(dir, 'desk.json'), text);
    const prepare = vi.spyOn(FlatItems.prototype, 'prepare');
    const scan = flat ? undefined : vi.spyOn(FlatItems.prototype, 'scan').mockReturnValue(-1);
    try {
      const state = await loadState({ specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 5 });
      return {
        items: state.model.collections.get('/api/v1/desk')?.items.items.slice(),
        taken: prepare.mock.calls.length,
      };
    } catch (e) {
      return { error: (e as Error).message, taken: prepare.mock.calls.length };
    } finally {
      prepare.mockRestore();
      scan?.mockRestore();
    }
  }

  it('a valid fixture: the same items, the same texts and pks, most of them taken flat', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'flat-'));
    const text = lines(desks);
    const flat = await load(dir, text, true);
    const parsed = await load(dir, text, false);
    expect(parsed.taken).toBe(0);
    expect(flat.taken).toBeGreaterThan(2000);
    expect(flat.items).toEqual(parsed.items);
    expect(flat.items?.map((i) => i.json)).toEqual(desks.map((d) => JSON.stringify({ ...d })));
  });

  it('faults deep in the file: the same problems, in the same words and places', async () => {
    const items: unknown[] = desks.map((d) => ({ ...d }));
    items[1500] = { ...desks[1500], pk: 11 };
    items[2000] = { ...desks[2000], building: 'a' };
    items[2500] = { url: 'http://x.example/api/v1/desk/2501', ...desks[2500] };
    items[2600] = { ...desks[2600], floor: 1.5 };
    items[2700] = { ...desks[2700], number: 7 };
    // What the deployment's model refuses: a building other than S or P, a number over 10 characters, a floor below 0.
    items[2750] = { ...desks[2750], building: 'Z' };
    items[2800] = { ...desks[2800], number: '12345678901' };
    items[2850] = { ...desks[2850], floor: -1 };
    const text = lines(items).replace('"pk":2900,', '"pk":2900 ,').replace('"pk":2950,', '"pk":2950,"pk":2950,');
    const dir = await mkdtemp(path.join(tmpdir(), 'flat-'));
    const flat = await load(dir, text, true);
    const parsed = await load(dir, text, false);
    expect(flat.taken).toBeGreaterThan(2000);
    expect(flat.error).toBeDefined();
    expect(flat.error).toBe(parsed.error);
    for (const at of [
      '/1500/pk',
      '/2000/building',
      '/2500/url',
      '/2600/floor',
      '/2700/number',
      '/2750/building',
      '/2800/number',
      '/2850/floor',
    ])
      // Placed in the file too: its line and column, then the pointer.
      expect(flat.error).toMatch(new RegExp(`at line \\d+:\\d+ \\(${at}\\):`));
  });
});

describe('answers over a fixture read the flat way are the answers over it parsed', () => {
  afterEach(() => vi.restoreAllMocks());
  it('lists, pages, filters, search, ordering, details and writes: byte for byte (designer spec)', async () => {
    const designer = path.resolve('test/fixtures/designer/openapi.yaml');
    const dir = await mkdtemp(path.join(tmpdir(), 'flat-answers-'));
    const desks = Array.from({ length: 2500 }, (_, i) => ({
      pk: i + 1,
      building: 'ABCD'[i % 4] ?? 'A',
      floor: 1 + (i % 7),
      number: `${100 + (i % 300)}${i % 3 === 0 ? 'B' : ''}`,
      active: i % 3 !== 0,
      lead: i % 7 === 0,
      ergonomic: i % 2 === 0,
      held_today: i % 5 === 0,
    }));
    await writeFile(path.join(dir, 'desk.json'), `[\n${desks.map((d) => JSON.stringify(d)).join(',\n')}\n]\n`);
    const resolved = resolveConfig({ logLevel: 'silent', allowedHosts: ['*'], fixturesDir: dir, specFile: designer });
    if (!resolved.ok) throw new Error('config');
    const core = async (flat: boolean) => {
      const prepare = vi.spyOn(FlatItems.prototype, 'prepare');
      const scan = flat ? undefined : vi.spyOn(FlatItems.prototype, 'scan').mockReturnValue(-1);
      const state = await loadState({ specFile: designer, fixturesDir: dir, seed: 1, defaultGenerateCount: 5 });
      const taken = prepare.mock.calls.length;
      prepare.mockRestore();
      scan?.mockRestore();
      return { core: new StubCore(state.model, coreOptions(resolved.config, state)), taken };
    };
    const fast = await core(true);
    const plain = await core(false);
    // Most items taken flat (the first chunk's are parsed: the flat way needs a first item's shape).
    expect(fast.taken).toBeGreaterThan(1500);
    expect(plain.taken).toBe(0);
    const requests: [string, string, unknown?][] = [
      ['GET', '/api/v1/desk'],
      ['GET', '/api/v1/desk?page=25&format=json'],
      ['GET', '/api/v1/desk?building=C&floor=3'],
      ['GET', '/api/v1/desk?active=false&page_size=50&page=2'],
      ['GET', '/api/v1/desk?search=12B'],
      ['GET', '/api/v1/desk?ordering=-floor,number&page=3'],
      ['GET', '/api/v1/desk/1234'],
      ['GET', '/api/v1/desk/1234?building=B'],
      ['PATCH', '/api/v1/desk/1234', { building: 'Q' }],
      ['DELETE', '/api/v1/desk/17'],
      [
        'POST',
        '/api/v1/desk',
        { building: 'Z', floor: 2, number: '9Z', active: true, lead: false, ergonomic: true, held_today: false },
      ],
      ['GET', '/api/v1/desk?building=Q'],
      ['GET', '/api/v1/desk?ordering=-pk'],
      ['GET', '/api/v1/desk?search=9Z&ordering=floor'],
    ];
    for (const [method, url, body] of requests) {
      const ask = (c: StubCore) => {
        const headers: Record<string, string> = {
          host: 'stub.test',
          ...(body ? { 'content-type': 'application/json' } : {}),
        };
        const a = settled(
          c.answer({
            method,
            url,
            header: (n) => headers[n],
            body: body ? Buffer.from(JSON.stringify(body)) : undefined,
          }),
        );
        return { status: a.status, headers: a.headers, body: a.body };
      };
      const want = ask(plain.core);
      expect(want.status, `${method} ${url}`).toBeLessThan(300);
      expect(ask(fast.core), `${method} ${url}`).toEqual(want);
    }
  });
});
