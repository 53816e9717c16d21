// The designer differential test: the designer corpus (designer-corpus.ts, a few hundred requests:
// writes and what they leave, field filters, search, ordering, page_size, OPTIONS, undeclared methods)
// sent to the stub serving test/fixtures/designer/openapi.yaml and to the reference's designer profile
// (REF_PROFILE=designer: the same spec as a Django developer writes it with stock DRF and django-filter),
// sequence by sequence from the same state. Known version differences (DRF 3.14 / Django 3.2 → DRF 3.16
// / Django 5.2) come from designer-allow-list.ts, each with its citations; any other difference fails,
// with a grouped summary (one example per class).
//
//   npx vitest run test/reference/designer-differential.test.ts
//   DIFF_REPORT=1 npx vitest run test/reference/designer-differential.test.ts   # print the summary, never fail
//   npx tsx test/reference/designer-harness.ts                                    # the same, without vitest
// The full report: test-output/designer-differential.json.
import { describe, expect, it } from 'vitest';
import {
  DESIGNER_ALLOW_LIST,
  decimalToInt,
  pyQuotePlus,
  searchTerms314,
  searchTerms316,
  smartSplit,
} from './designer-allow-list.js';
import { buildDesignerCorpus, flatCorpus } from './designer-corpus.js';
import { designerGate, runDesignerDifferential, startDesignerReference } from './designer-harness.js';
import { formatReport } from './harness.js';

const gate = designerGate();
if (!gate.run && gate.skip)
  console.warn(`designer differential test skipped: the reference deployment is unavailable: ${gate.why}`);
const reportOnly = process.env.DIFF_REPORT === '1';

describe('the designer corpus and its allow-list', () => {
  it('is deterministic: a few hundred requests, ids unique, every route and dimension covered', () => {
    const a = flatCorpus();
    const b = flatCorpus(buildDesignerCorpus());
    expect(a.length).toBeGreaterThanOrEqual(400);
    expect(new Set(a.map((r) => r.id)).size).toBe(a.length);
    expect(b.map((r) => r.id)).toEqual(a.map((r) => r.id));
    const has = (f: (r: (typeof a)[number]) => boolean) => a.some(f);
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'])
      expect(
        has((r) => r.method === method),
        method,
      ).toBe(true);
    for (const p of ['building=', 'floor=', 'active=', 'search=', 'ordering=', 'page_size='])
      expect(
        has((r) => r.path.includes(`?${p}`) || r.path.includes(`&${p}`)),
        p,
      ).toBe(true);
    for (const path of [
      '/api/v1/desk',
      '/api/v1/desk/5',
      '/api/v1/employee',
      '/api/v1/employee/9',
      '/api/v1/signature',
    ]) {
      expect(
        has((r) => r.method === 'OPTIONS' && r.path === path),
        `OPTIONS ${path}`,
      ).toBe(true);
    }
    expect(
      has((r) => r.headers.some(([k, v]) => k === 'Content-Type' && v.startsWith('application/x-www-form-urlencoded'))),
    ).toBe(true);
    // writes come in sequences that start from the fixtures
    for (const s of buildDesignerCorpus())
      if (s.requests.some((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method))) expect(s.writes, s.name).toBe(true);
  });

  it('every allow-list entry cites source lines of both versions', () => {
    for (const e of DESIGNER_ALLOW_LIST) {
      expect(e.older.length, e.id).toBeGreaterThan(0);
      expect(e.newer.length, e.id).toBeGreaterThan(0);
      for (const c of [...e.older, ...e.newer])
        expect(c, e.id).toMatch(/^(rest_framework|django)\/\S+@\d+\.\d+\.\d+ L\d+/);
    }
    expect(new Set(DESIGNER_ALLOW_LIST.map((e) => e.id)).size).toBe(DESIGNER_ALLOW_LIST.length);
  });

  it('reads search terms, query values and decimals as Python, DRF 3.14 and DRF 3.16 do', () => {
    expect(smartSplit('a "b c" d\'e f\'g "h')).toEqual(['a', '"b c"', "d'e f'g", '"h']);
    expect(searchTerms314('c 20')).toEqual(['c', '20']);
    expect(searchTerms314('a,b  "c d"\u00a0e\0f')).toEqual(['a', 'b', '"c', 'd"', 'ef']);
    expect(searchTerms316('a,b  "c d" \'e\' ,,')).toEqual(['a', 'b', 'c d', 'e']);
    expect(searchTerms316('"')).toEqual(['']);
    expect(searchTerms316('""')).toEqual(['']);
    expect(searchTerms316('"a,1"')).toEqual(['a,1']);
    expect(searchTerms316(',,')).toEqual([]);
    expect(pyQuotePlus('"c 20"')).toBe('%22c+20%22');
    expect(pyQuotePlus('ü~a.b-_/')).toBe('%C3%BC~a.b-_%2F');
    expect(decimalToInt('99999999999999999999')).toBe(99999999999999999999n);
    expect(decimalToInt(' -1e30 ')).toBe(-(10n ** 30n));
    expect(decimalToInt('2.5')).toBe(2n);
    expect(decimalToInt('1_0')).toBe(10n);
    for (const bad of ['abc', '', '0x2', 'Infinity', 'NaN', '.']) expect(decimalToInt(bad), bad).toBeNull();
  });
});

describe.skipIf(!gate.run && gate.skip)("the stub against the reference's designer profile", () => {
  if (!gate.run && !gate.skip) {
    it('needs the reference deployment', () => {
      throw new Error(`the reference deployment is unavailable: ${gate.why}`);
    });
    return;
  }

  it('the harness is sound: the designer reference against a second one differs nowhere', async () => {
    const report = await runDesignerDifferential({
      allowList: [],
      reportFile: '',
      candidate: (dir) => startDesignerReference(dir),
    });
    expect(report.compared).toBeGreaterThanOrEqual(400);
    expect(report.differing, formatReport(report)).toBe(0);
  }, 180_000);

  it(`answers every designer corpus request as DRF 3.16 on Django 5.2 would${reportOnly ? ' (DIFF_REPORT=1: report only)' : ''}`, async () => {
    const report = await runDesignerDifferential();
    const summary = formatReport(report);
    console.log(summary);
    expect(report.compared).toBeGreaterThanOrEqual(400);
    if (reportOnly || report.differing === 0) return;
    throw new Error(
      `${report.differing} of ${report.compared} designer requests differ from the reference in ${report.classes.length} classes (full report: test-output/designer-differential.json)\n\n${summary}`,
    );
  }, 180_000);
});
