import { describe, expect, it } from 'vitest';
import { type CheckReport, exitCode, totalViolations, violationCount } from '../../../src/contract/report.js';
import { checkReport, endpointResult, violation } from './results.js';

describe('violation counts and the exit code', () => {
  it('counts kept and omitted violations', () => {
    const e = endpointResult({ violations: [violation(), violation()], omitted: { schema: 3, status: 1 } });
    expect(violationCount(e)).toBe(6);
    expect(totalViolations(checkReport({ endpoints: [e, endpointResult({ violations: [violation()] })] }))).toBe(7);
  });

  it.each<[string, Partial<CheckReport>, number]>([
    ['the contract holds', { endpoints: [endpointResult()] }, 0],
    ['a violation', { endpoints: [endpointResult({ violations: [violation()] })] }, 1],
    ['an omitted violation alone', { endpoints: [endpointResult({ omitted: { schema: 1 } })] }, 1],
    [
      'nothing reachable',
      { unreachable: 'ECONNREFUSED', endpoints: [endpointResult({ violations: [violation()] })] },
      2,
    ],
    ['every collection refused', { refused: true }, 2],
    ['the checker failed, whatever else', { aborted: 'boom', unreachable: 'x', refused: true }, 3],
  ])('%s: exit %d', (_name, over, want) => {
    expect(exitCode(checkReport(over))).toBe(want);
  });
});
