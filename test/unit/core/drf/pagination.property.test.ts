import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StubCore } from '../../../../src/core/answer.js';
import { compileSnapshot, type Model } from '../../../../src/core/model.js';
import { loadState } from '../../../../src/load/state.js';
import { coreOptions } from '../../../../src/server/app.js';
import type { DeskList, StoredDesk } from '../../../../src/types.js';
import { ask, FIXTURES, SPEC, testConfig } from '../../../helpers.js';

const base = loadState({ specFile: SPEC, fixturesDir: FIXTURES, seed: 1, defaultGenerateCount: 25 });
const models = new Map<number, { model: Model; listed: number[] }>();

/**
 * The bundled snapshot with `size` desks (compiled once per size, no file written), and the pks
 * the desk list shows: the deployment's queryset, active desks only, ordered by building, floor
 * and number (an oracle apart from the stub: the members are ASCII, compared as Python does).
 */
async function modelWith(size: number): Promise<{ model: Model; listed: number[] }> {
  let m = models.get(size);
  if (!m) {
    const { snapshot } = await base;
    const desks: StoredDesk[] = Array.from({ length: size }, (_, i) => ({
      pk: 3 * i + 7,
      building: i % 3 === 1 ? 'P' : 'S',
      floor: 1 + (i % 4),
      number: `${i + 1}${i % 5 === 0 ? 'B' : ''}`,
      active: i % 2 === 0,
      lead: i % 3 === 0,
      ergonomic: i % 5 === 0,
      held_today: i % 7 === 0,
    }));
    const desk = snapshot.collections['/api/v1/desk'];
    const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    const listed = desks
      .filter((d) => d.active)
      .sort((a, b) => cmp(a.building, b.building) || cmp(a.floor, b.floor) || cmp(a.number, b.number))
      .map((d) => d.pk);
    m = {
      model: compileSnapshot({
        ...snapshot,
        collections: {
          ...snapshot.collections,
          '/api/v1/desk': { ...desk, source: 'fixture', from: 'test', items: desks, examples: {} },
        },
      }),
      listed,
    };
    models.set(size, m);
  }
  return m;
}

/** An oracle written apart from the stub: Python's quote_plus for the simple values used here. */
const quotePlus = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');
function drfLink(base: string, params: [string, string][], page: number): string {
  const entries = params.filter(([k]) => k !== 'page');
  if (page !== 1) entries.push(['page', String(page)]);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const q = entries.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join('&');
  return q ? `${base}?${q}` : base;
}

const key = fc
  .stringMatching(/^[a-z][a-z0-9_]{0,6}$/)
  .filter((k) => k !== 'page' && k !== 'format' && !k.startsWith('__'));
const value = fc.string({ maxLength: 8 });

describe('property: crawling any collection with any page size', () => {
  it('yields each active desk exactly once in the model’s order, the counts agree, and every link is exactly DRF’s', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 1, max: 40 }),
        fc.uniqueArray(fc.tuple(key, value), { maxLength: 3, selector: ([k]) => k }),
        fc.constantFrom(undefined, 'api', 'json'),
        async (desks, pageSize, extra, format) => {
          const { model, listed } = await modelWith(desks);
          const size = listed.length;
          const core = new StubCore(model, coreOptions(testConfig({ pageSize })));
          const base = 'http://prop.test:8000';
          const params: [string, string][] = [...extra, ...(format ? [['format', format] as [string, string]] : [])];
          const firstQuery = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
          let url: string | null = `/api/v1/desk${firstQuery ? `?${firstQuery}` : ''}`;
          const seen: number[] = [];
          const pages = Math.max(1, Math.ceil(size / pageSize));
          for (let page = 1; url !== null; page++) {
            const answer = ask(core, url, { headers: { host: 'prop.test:8000' } });
            expect(answer.status).toBe(200);
            const body = JSON.parse(answer.body) as DeskList;
            expect(body.count).toBe(size);
            expect(body.next).toBe(page < pages ? drfLink(`${base}/api/v1/desk`, params, page + 1) : null);
            expect(body.previous).toBe(page > 1 ? drfLink(`${base}/api/v1/desk`, params, page - 1) : null);
            expect(body.results.length).toBe(page < pages ? pageSize : size - pageSize * (pages - 1));
            for (const d of body.results)
              expect(d.url).toBe(`${base}/api/v1/desk/${d.pk}${format ? `?format=${format}` : ''}`);
            seen.push(...body.results.map((d) => d.pk));
            url = body.next === null ? null : body.next.slice(base.length);
            expect(page).toBeLessThanOrEqual(pages);
          }
          expect(seen).toEqual(listed);
          // The page past the last is DRF's 404.
          const past = ask(core, `/api/v1/desk?page=${pages + 1}`, { headers: { host: 'prop.test:8000' } });
          expect(past.status).toBe(404);
        },
      ),
      { numRuns: 150, seed: 20261122 },
    );
  });
});
