import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { allDesks, desk, workplaceClient } from '../../examples/typed-client.js';
import type { Desk, StoredDesk } from '../../src/index.js';
import { FIXTURES, listen, makeApp } from '../helpers.js';

const fixtureDesks = JSON.parse(await readFile(`${FIXTURES}/desk.json`, 'utf8')) as StoredDesk[];

describe('the typed client example (openapi-fetch + generated types) against the running stub', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = await makeApp({ pageSize: 10 });
    base = await listen(app);
  });
  afterAll(() => app.close());

  it('reads every desk across pages and one desk at its address', async () => {
    const desks = await allDesks(base);
    // The deployment's queryset lists the active desks only (190 of the 192), over 19 pages of 10.
    const active = fixtureDesks.filter((d) => d.active);
    expect(desks).toHaveLength(active.length);
    expect(new Set(desks.map((d) => d.pk))).toEqual(new Set(active.map((d) => d.pk)));
    expect(await desk(base, desks[3]?.pk ?? 0)).toEqual(desks[3]);
    expect(await desk(base, 999_999)).toBeUndefined();
  });

  it('is typed end to end (checked by tsc in npm test)', async () => {
    const client = workplaceClient(base);
    const { data } = await client.GET('/api/v1/desk', { params: { query: { format: 'json' } } });
    expectTypeOf(data?.results).toEqualTypeOf<Desk[] | undefined>();
    expectTypeOf<Desk['held_today']>().toEqualTypeOf<boolean>();
    expectTypeOf<Desk['number']>().toEqualTypeOf<string>();
    // The model's choices: Schaefers, Park Place.
    expectTypeOf<Desk['building']>().toEqualTypeOf<'S' | 'P'>();
    // @ts-expect-error: `format` takes only 'api' or 'json'
    await client.GET('/api/v1/desk', { params: { query: { format: 'xml' } } });
    // @ts-expect-error: the desk list declares no `search` parameter
    await client.GET('/api/v1/desk', { params: { query: { search: 'A' } } });
    // @ts-expect-error: there is no such path in the spec
    await client.GET('/api/v1/desks');
    // @ts-expect-error: a desk has no `colour` field
    expect(data?.results[0]?.colour).toBeUndefined();
  });
});
