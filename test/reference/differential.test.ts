// The differential test: every corpus request (test/reference/corpus.ts, ≥ 3,000) sent to the stub and
// to the reference deployment (test/reference/drf/: the lcog-team deployment's configuration on Django
// 4.2 + DRF 3.16.0), answers compared request by request: status, Content-Type, Allow, Vary, Location,
// WWW-Authenticate, the CORS headers where a frontend origin is configured (Content-Length on HEAD) and
// the body; writes one at a time or in sequences, both servers reset between. Known version
// differences (DRF 3.16.0 → 3.15.2, what the deployment pins) come from the allow-list, each with its
// citations; any other difference fails, with a grouped summary (one example per class).
//
//   npx vitest run test/reference/differential.test.ts
//   DIFF_REPORT=1 npx vitest run test/reference/differential.test.ts   # print the summary, never fail
//   npx tsx test/reference/harness.ts                                   # the same, without vitest
// The full report: test-output/differential.json.
import { describe, expect, it } from 'vitest';
import { ALLOW_LIST, parseQuery, pythonInt } from './allow-list.js';
import { compareAnswers, observe } from './compare.js';
import { SERVERS } from './corpus.js';
import { referenceGate, startReference } from './drf-server.js';
import { formatReport, loadCorpus, REF_RESET, referenceOptions, runDifferential } from './harness.js';

const gate = referenceGate();
if (!gate.run && gate.skip)
  console.warn(`differential test skipped: the reference deployment is unavailable: ${gate.why}`);
const reportOnly = process.env.DIFF_REPORT === '1';

describe('the differential harness itself', () => {
  it('has a deterministic corpus of at least 3,000 requests, ids unique', () => {
    const a = loadCorpus();
    const b = loadCorpus();
    expect(a.length).toBeGreaterThanOrEqual(3000);
    expect(new Set(a.map((r) => r.id)).size).toBe(a.length);
    expect(b.map((r) => r.id)).toEqual(a.map((r) => r.id));
    for (const server of Object.keys(SERVERS))
      expect(
        a.some((r) => r.server === server),
        server,
      ).toBe(true);
  });

  it('every allow-list entry cites source lines of both versions', () => {
    for (const e of ALLOW_LIST) {
      expect(e.older.length, e.id).toBeGreaterThan(0);
      expect(e.newer.length, e.id).toBeGreaterThan(0);
      for (const c of [...e.older, ...e.newer])
        expect(c, e.id).toMatch(/^(rest_framework|django)\/\S+@\d+\.\d+\.\d+ L\d+/);
    }
  });

  it('parses as Python and Django do', () => {
    expect(pythonInt('42')).toBe(42n);
    expect(pythonInt(' -0 ')).toBe(0n);
    expect(pythonInt('1_0')).toBe(10n);
    expect(pythonInt('٣')).toBe(3n);
    expect(pythonInt('３')).toBe(3n);
    expect(pythonInt('99999999999999999999')).toBe(99999999999999999999n);
    for (const bad of ['', 'abc', '1.5', '_1', '1__0', '0x2', '1_']) expect(pythonInt(bad), bad).toBeNull();
    expect(parseQuery('page=&q=a+b&x&%C3%BC=%FF')).toEqual([
      { raw: 'page=', key: 'page', value: '' },
      { raw: 'q=a+b', key: 'q', value: 'a b' },
      { raw: 'x', key: 'x', value: '' },
      { raw: '%C3%BC=%FF', key: 'ü', value: '\ufffd' },
    ]);
  });

  it('sees a difference where there is one, and normalises each server own base url', () => {
    const a = observe(
      {
        status: 200,
        headers: { 'content-type': 'application/json', vary: 'Accept, Cookie' },
        body: '{"url":"http://127.0.0.1:1/x"}',
      },
      'http://127.0.0.1:1',
      'GET',
    );
    const b = observe(
      {
        status: 200,
        headers: { 'content-type': 'application/json', vary: 'Accept, Cookie' },
        body: '{"url":"http://127.0.0.1:2/x"}',
      },
      'http://127.0.0.1:2',
      'GET',
    );
    expect(compareAnswers(a, b)).toEqual([]);
    const c = observe(
      {
        status: 200,
        headers: { 'content-type': 'application/json', vary: 'Accept' },
        body: '{"url":"http://127.0.0.1:2/y"}',
      },
      'http://127.0.0.1:2',
      'GET',
    );
    expect(compareAnswers(a, c).map((d) => `${d.kind}:${d.where}`)).toEqual(['header:vary', 'body:/url']);
  });
});

describe.skipIf(!gate.run && gate.skip)('the stub against the reference DRF deployment', () => {
  if (!gate.run && !gate.skip) {
    it('needs the reference deployment', () => {
      throw new Error(`the reference deployment is unavailable: ${gate.why}`);
    });
    return;
  }

  it('the harness is sound: the reference against a second reference differs nowhere (sample)', async () => {
    let n = 0;
    const report = await runDifferential({
      // every 12th request of one configuration, and its write sequences; no allow-list: same versions
      filter: (r) => r.server === 'p7' && (n++ % 12 === 0 || r.sequence !== undefined),
      allowList: [],
      reportFile: '',
      candidate: async (key, fixturesDir) => ({
        ...(await startReference(referenceOptions(key, fixturesDir))),
        resetPath: REF_RESET,
      }),
    });
    expect(report.compared).toBeGreaterThan(200);
    expect(report.differing, formatReport(report)).toBe(0);
  }, 120_000);

  it(`answers every corpus request as the deployment (DRF 3.15.2 on Django 4.2) would${reportOnly ? ' (DIFF_REPORT=1: report only)' : ''}`, async () => {
    const report = await runDifferential();
    const summary = formatReport(report);
    console.log(summary);
    expect(report.compared).toBeGreaterThanOrEqual(3000);
    if (reportOnly || report.differing === 0) return;
    throw new Error(
      `${report.differing} of ${report.compared} requests differ from the reference in ${report.classes.length} classes (full report: test-output/differential.json)\n\n${summary}`,
    );
  }, 240_000);
});
