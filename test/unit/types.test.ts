import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import * as types from '../../src/types.js';
import type { Desk, ErrorBody, ListEnvelope, Page, StoredDesk } from '../../src/types.js';
import { ROOT } from '../cli-helpers.js';

/*
 * src/types.ts holds types alone. What is tested is that they are the spec's: each record below
 * must name every member of its type and no other (tsc checks that), and the spec's schema must
 * list the same members (checked here), so a generated file gone stale fails one or the other.
 */
const DESK: Record<keyof Desk, true> = {
  url: true,
  pk: true,
  building: true,
  floor: true,
  number: true,
  active: true,
  lead: true,
  ergonomic: true,
  held_today: true,
};
// `results` is typed per collection (Page<T>): the envelope's schema requires it without a schema.
const ENVELOPE: Record<keyof ListEnvelope, true> = { count: true, next: true, previous: true };
const PAGE: Record<keyof Page<Desk>, true> = { ...ENVELOPE, results: true };
const ERROR: Record<keyof ErrorBody, true> = { detail: true };

const schema = async (file: string, at?: string) => {
  const doc = parse(await readFile(path.join(ROOT, 'openapi', 'schemas', file), 'utf8')) as Record<string, unknown>;
  return (at ? doc[at] : doc) as { required: string[]; properties: Record<string, unknown> };
};

describe("src/types.ts: the service's types, as the spec describes them", () => {
  it('is types alone: nothing at run time', () => {
    expect(Object.keys(types)).toEqual([]);
  });

  it.each<[string, Record<string, true>, Record<string, true>, () => ReturnType<typeof schema>]>([
    ['Desk', DESK, DESK, () => schema('desk.yaml')],
    ['ListEnvelope, and Page<T> with its results', ENVELOPE, PAGE, () => schema('list-envelope.yaml')],
    ['ErrorBody', ERROR, ERROR, () => schema('error.yaml', 'Error')],
  ])('%s: the members of its schema, the required ones', async (_name, members, required, of) => {
    const s = await of();
    expect(Object.keys(members).sort()).toEqual(Object.keys(s.properties).sort());
    expect(Object.keys(required).sort()).toEqual([...s.required].sort());
  });

  it('StoredDesk is a desk without its url (built per request); Page<T> an envelope of T', () => {
    // A literal of the type: tsc refuses a member it lacks (url among them) or one it misses.
    const page: Page<StoredDesk> = {
      count: 1,
      next: null,
      previous: null,
      results: [
        { pk: 1, building: 'S', floor: 1, number: '1', active: true, lead: false, ergonomic: false, held_today: false },
      ],
    };
    expect(page.results[0]?.building).toBe('S');
  });
});
