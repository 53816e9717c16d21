import { describe, expect, it } from 'vitest';
import type { DriftReport } from '../../../src/contract/drift.js';
import { jsonCompareReport, jsonReport, summaryLine, textReport } from '../../../src/contract/reporters.js';
import { checkReport, endpointResult, violation } from './results.js';

// vitest.config.ts sets NO_COLOR: the reports are plain text here.

describe('summaryLine', () => {
  it.each<[string, Parameters<typeof checkReport>[0], string]>([
    [
      'nothing checked',
      {},
      '0 endpoints checked with 3 requests in 12 ms: 0 passed, 0 failed; 0 violations of 0 rules',
    ],
    [
      'one failed of two, omitted violations counted, one truncated',
      {
        requests: 1,
        endpoints: [
          endpointResult({ violations: [violation()], omitted: { status: 2 } }),
          endpointResult({ endpoint: 'GET /api/v1/employee', truncated: true }),
        ],
      },
      '2 endpoints checked with 1 request in 12 ms: 1 passed, 1 failed (1 not verified to the end: --max-pages); 3 violations of 2 rules',
    ],
  ])('%s', (_name, over, want) => {
    expect(summaryLine(checkReport(over))).toBe(want);
  });
});

describe('textReport', () => {
  it('groups by endpoint then rule: pointer, expected, found; notes a cut crawl and item urls left', () => {
    const text = textReport(
      checkReport({
        endpoints: [
          endpointResult({ pages: 2, items: 200, truncated: true, itemUrlsFetched: 3, itemUrlsSkipped: 7 }),
          endpointResult({
            endpoint: 'GET /api/v1/employee',
            violations: [violation({ endpoint: 'GET /api/v1/employee/{pk}', pointer: '' })],
            omitted: { status: 1 },
          }),
        ],
      }),
    );
    expect(text).toContain(
      '✓ GET /api/v1/desk 2 pages, 200 items (stopped at 2 pages, --max-pages: not verified; 3 of 10 item urls fetched, --item-urls)',
    );
    expect(text).toContain(
      [
        '✗ GET /api/v1/employee 1 page, 0 items',
        "    schema (spec: the body validates against the spec's response schema for its status)",
        '      GET /api/v1/employee/{pk} / at https://h/api/v1/desk',
        '        expected: must be integer',
        '        found:    "x"',
        '    status (spec: a collection page and an item url answer 200)',
        '      … and 1 more',
      ].join('\n'),
    );
  });

  it('shows 20 violations of a rule and counts the rest', () => {
    const vs = Array.from({ length: 23 }, (_, i) => violation({ pointer: `/${i}` }));
    const text = textReport(checkReport({ endpoints: [endpointResult({ violations: vs, omitted: { schema: 4 } })] }));
    expect(text.match(/expected: must be integer/g)).toHaveLength(20);
    expect(text).toContain('… and 7 more');
  });

  it('an unreachable deployment is one line; hints and an abort are escaped', () => {
    expect(textReport(checkReport({ unreachable: 'ECONNREFUSED' }))).toBe(
      'error: https://h cannot be reached: ECONNREFUSED\n',
    );
    const text = textReport(checkReport({ hints: ['a\u001bb'], aborted: 'x\ny' }));
    expect(text).toContain('hint: a\\u001bb');
    expect(text).toContain('error: the checker failed before the end: x\\ny');
  });

  it('with drift: each difference under both bases, and the verdict', () => {
    const drift: DriftReport = {
      baseA: 'https://a',
      baseB: 'https://b',
      collections: [],
      violations: [violation({ rule: 'drift.count', pointer: '/count', expected: '2', found: '3' })],
      omitted: 1,
      failOnDrift: false,
    };
    const text = textReport(checkReport(), drift);
    expect(text).toContain('Drift between https://a and https://b\n\n≠ GET /api/v1/desk\n    drift.count');
    expect(text).toContain('      /count at https://h/api/v1/desk\n        https://a: 2\n        https://b: 3');
    expect(text).toContain('2 differences (reported only; --fail-on-drift fails the run)');
    expect(textReport(checkReport(), { ...drift, violations: [], omitted: 0 })).toContain(
      'no drift: the same collections, counts, items and fields',
    );
  });
});

describe('jsonReport and jsonCompareReport', () => {
  it.each<[string, Parameters<typeof checkReport>[0], boolean]>([
    ['holds', { endpoints: [endpointResult()] }, true],
    ['a violation', { endpoints: [endpointResult({ violations: [violation()] })], violations: [violation()] }, false],
    ['refused', { refused: true }, false],
    ['aborted', { aborted: 'x' }, false],
  ])('ok when the contract holds: %s', (_name, over, ok) => {
    const r = JSON.parse(jsonReport(checkReport(over))) as { ok: boolean; aborted: string | null };
    expect(r.ok).toBe(ok);
  });

  it('endpoints carry their violation count, violations their rule text; an unreachable one no summary', () => {
    const report = checkReport({
      endpoints: [endpointResult({ violations: [violation()], omitted: { schema: 1 } })],
      violations: [violation()],
    });
    const r = JSON.parse(jsonReport(report)) as {
      endpoints: { violations: number; rules?: unknown }[];
      violations: unknown[];
      summary: string;
    };
    expect(r.endpoints[0]?.violations).toBe(2);
    expect(r.endpoints[0]?.rules).toBeUndefined();
    expect(r.violations[0]).toMatchObject({
      rule: 'schema',
      source: 'spec',
      ruleText: expect.stringMatching(/validates/),
    });
    expect(r.summary).toMatch(/^1 endpoint checked/);
    expect(JSON.parse(jsonReport(checkReport({ unreachable: 'x' }))).summary).toBeNull();
  });

  it('two deployments and their drift, with the exit code', () => {
    const r = JSON.parse(jsonCompareReport(checkReport(), checkReport({ baseUrl: 'https://b' }), undefined, 1));
    expect([r.exitCode, r.deployments.map((d: { baseUrl: string }) => d.baseUrl), r.drift]).toEqual([
      1,
      ['https://h', 'https://b'],
      null,
    ]);
    const drift: DriftReport = {
      baseA: 'a',
      baseB: 'b',
      collections: [],
      violations: [violation()],
      omitted: 2,
      failOnDrift: true,
    };
    expect(JSON.parse(jsonCompareReport(checkReport(), checkReport(), drift, 1)).drift).toMatchObject({
      differences: 3,
      failOnDrift: true,
    });
  });
});
