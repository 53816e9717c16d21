import { describe, expect, it } from 'vitest';
import { Findings, KEPT_PER_RULE } from '../../../../src/contract/findings.js';
import { ProxySession } from '../../../../src/contract/proxy/session.js';
import type { Routed } from '../../../../src/contract/proxy/validate.js';
import { Redactor } from '../../../../src/contract/redact.js';

const routed = (path: string, resource: string) =>
  ({
    list: { path, operationId: `list-${resource}`, resource },
    detail: undefined,
    isDetail: false,
  }) as unknown as Routed;
const desk = routed('/api/v1/desk', 'desk');

function findings(rules: Parameters<Findings['report']>[0][]): Findings {
  const f = new Findings(new Redactor([]), { operationId: 'x', path: '/api/v1/desk' });
  for (const r of rules) f.report(r, 'u', '', 'e', 'f');
  return f;
}

describe('ProxySession: what a proxy saw, by endpoint', () => {
  it('merges answers of one collection: requests, time, the rules in catalogue order, violations', () => {
    const s = new ProxySession('https://h');
    s.merge(desk, ['schema', 'status'], findings(['schema']), 2);
    s.merge(desk, ['urls.base', 'transport'], findings([]), 3);
    s.merge(routed('/api/v1/employee', 'employee'), ['status'], findings([]), 1);
    const [e, other] = s.endpoints;
    expect(e).toMatchObject({ endpoint: 'GET /api/v1/desk', resource: 'desk', requests: 2, durationMs: 5 });
    expect(e?.rules).toEqual(['transport', 'status', 'schema', 'urls.base']);
    expect(e?.violations.map((v) => v.rule)).toEqual(['schema']);
    expect(other?.endpoint).toBe('GET /api/v1/employee');
    expect(s.violations).toBe(1);
  });

  it(`keeps ${KEPT_PER_RULE} violations of a rule over all answers, counts the rest and what each answer omitted`, () => {
    const s = new ProxySession('https://h');
    for (let i = 0; i < KEPT_PER_RULE + 2; i++) s.merge(desk, ['schema'], findings(['schema']), 0);
    s.merge(desk, ['schema'], findings(Array(KEPT_PER_RULE + 5).fill('status')), 0);
    const [e] = s.endpoints;
    expect(e?.violations.filter((v) => v.rule === 'schema')).toHaveLength(KEPT_PER_RULE);
    expect(e?.omitted).toEqual({ schema: 2, status: 5 });
    expect(s.violations).toBe(KEPT_PER_RULE + 2 + KEPT_PER_RULE + 5);
  });

  it('text: the summary printed at exit', () => {
    const s = new ProxySession('https://h');
    s.requests = 3;
    s.validated = 2;
    s.upstreamFailures = 1;
    s.merge(desk, ['status'], findings([]), 0);
    s.merge(routed('/api/v1/employee', 'employee'), ['schema'], findings(['schema', 'schema']), 0);
    expect(s.text()).toBe(
      [
        'Proxy of https://h: 3 requests, 2 answers validated, 1 without an answer; 2 violations',
        '  ✓ GET /api/v1/desk: 1 answer',
        '  ✗ GET /api/v1/employee: 1 answer; schema ×2',
        '',
      ].join('\n'),
    );
    expect(s.durationMs).toBeGreaterThanOrEqual(0);
  });
});
