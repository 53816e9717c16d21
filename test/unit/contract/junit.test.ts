import { describe, expect, it } from 'vitest';
import type { DriftReport } from '../../../src/contract/drift.js';
import { junitFromEndpoints, junitReport } from '../../../src/contract/junit.js';
import { checkReport, endpointResult, violation } from './results.js';

const NOW = new Date('2026-01-05T10:00:00.123Z');
const cases = (xml: string) => [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)" time="([^"]*)"/g)];
const attr = (xml: string, tag: string, name: string) => new RegExp(`<${tag}\\b[^>]* ${name}="([^"]*)"`).exec(xml)?.[1];

describe('junitReport: one testcase per endpoint and rule, whatever the outcome', () => {
  const e = endpointResult({
    rules: ['status', 'schema', 'probe.head'],
    durationMs: 30,
    violations: [violation({ found: 'a < b & "c"\u0001' })],
    omitted: { schema: 2 },
    skipped: { 'probe.head': 'not run: --probes not given' },
  });
  const xml = junitReport(checkReport({ endpoints: [e], durationMs: 1500 }), undefined, NOW);

  it('names each case by endpoint and rule, shares the time, counts failures and skips', () => {
    expect(cases(xml).map((m) => [m[1], m[2], m[3]])).toEqual([
      ['contract', 'the deployment answers', '0.000'],
      ['GET /api/v1/desk', 'listDesks: status', '0.010'],
      ['GET /api/v1/desk', 'listDesks: schema', '0.010'],
      ['GET /api/v1/desk', 'listDesks: probe.head', '0.010'],
    ]);
    expect([
      attr(xml, 'testsuites', 'tests'),
      attr(xml, 'testsuites', 'failures'),
      attr(xml, 'testsuites', 'skipped'),
    ]).toEqual(['4', '1', '1']);
    expect(attr(xml, 'testsuite', 'timestamp')).toBe('2026-01-05T10:00:00');
    expect(attr(xml, 'testsuites', 'time')).toBe('1.500');
    expect(xml).toContain('<skipped message="not run: --probes not given"/>');
  });

  it('a failure carries the rule, every violation and the count left out, escaped for XML', () => {
    expect(xml).toMatch(/<failure message="spec: the body validates[^"]*" type="schema">/);
    expect(xml).toContain('found:    a &lt; b &amp; "c"');
    expect(xml).not.toContain('\u0001');
    expect(xml).toContain('… and 2 more</failure>');
  });
});

describe('junitReport: a run that did not get far', () => {
  it.each<[string, Parameters<typeof checkReport>[0], string[]]>([
    [
      'unreachable: a failure, every rule skipped as not run',
      { unreachable: 'connect ECONNREFUSED', endpoints: [endpointResult()] },
      ['type="unreachable"', 'skipped message="not run: the deployment cannot be reached"'],
    ],
    [
      'refused: the hints in the failure',
      { refused: true, hints: ['pass credentials'] },
      ['type="refused"', '>pass credentials</failure>'],
    ],
    [
      'aborted: a case saying the checker failed',
      { aborted: 'boom' },
      ['name="the checker runs to the end"', 'type="checker">boom</failure>'],
    ],
  ])('%s', (_name, over, want) => {
    const xml = junitReport(checkReport(over), undefined, NOW);
    for (const w of want) expect(xml).toContain(w);
  });

  it('attributes keep line breaks as references and quotes escaped', () => {
    const xml = junitReport(checkReport({ refused: true, baseUrl: 'https://h/"a\'\n\t' }), undefined, NOW);
    expect(xml).toContain('name="contract https://h/&quot;a&apos;&#10;&#9;"');
  });

  it('takes several reports and a drift suite: reported only, or failing with --fail-on-drift', () => {
    const drift = (failOnDrift: boolean): DriftReport => ({
      baseA: 'https://a',
      baseB: 'https://b',
      collections: [{ endpoint: 'GET /api/v1/desk', operationId: 'listDesks', path: '/api/v1/desk' }],
      violations: [violation({ rule: 'drift.count', expected: '2', found: '3' })],
      omitted: 0,
      failOnDrift,
    });
    const reported = junitReport([checkReport(), checkReport({ baseUrl: 'https://b' })], drift(false), NOW);
    expect(reported.match(/<testsuite /g)).toHaveLength(3);
    expect(
      cases(reported)
        .filter((m) => m[1] === 'GET /api/v1/desk')
        .map((m) => m[2]),
    ).toEqual([
      'listDesks: drift.collections',
      'listDesks: drift.count',
      'listDesks: drift.items',
      'listDesks: drift.fields',
    ]);
    expect(reported).toContain('<system-out>drift (reported only, --fail-on-drift not given):');
    expect(attr(reported, 'testsuites', 'failures')).toBe('0');
    const failing = junitReport(checkReport(), drift(true), NOW);
    expect(failing).toContain('type="drift.count"');
    expect(attr(failing, 'testsuites', 'failures')).toBe('1');
  });
});

describe('junitFromEndpoints: a proxy session', () => {
  it('one suite of the endpoints seen', () => {
    const xml = junitFromEndpoints('proxy https://h', [endpointResult({ violations: [violation()] })], 2000, NOW);
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="proxy https://h" tests="2" failures="1" errors="0" skipped="0" time="2.000">',
      ),
    ).toBe(true);
    expect(cases(xml).map((m) => m[2])).toEqual(['listDesks: status', 'listDesks: schema']);
    expect(xml.endsWith('</testsuites>\n')).toBe(true);
  });
});
