// Reports and results built by hand, for the tests of what reads them (reporters, JUnit, exit codes).
import type { CheckReport, EndpointResult } from '../../../src/contract/report.js';
import type { Violation } from '../../../src/contract/rules.js';

export function endpointResult(over: Partial<EndpointResult> = {}): EndpointResult {
  return {
    endpoint: 'GET /api/v1/desk',
    operationId: 'listDesks',
    resource: 'desk',
    pages: 1,
    items: 0,
    count: 0,
    requests: 1,
    truncated: false,
    reachedEnd: true,
    itemUrlsFetched: 0,
    itemUrlsSkipped: 0,
    durationMs: 4,
    firstStatus: 200,
    violations: [],
    omitted: {},
    rules: ['status', 'schema'],
    skipped: {},
    ...over,
  };
}

export function violation(over: Partial<Violation> = {}): Violation {
  return {
    endpoint: 'GET /api/v1/desk',
    operationId: 'listDesks',
    rule: 'schema',
    url: 'https://h/api/v1/desk',
    pointer: '/results/0/pk',
    expected: 'must be integer',
    found: '"x"',
    ...over,
  };
}

export function checkReport(over: Partial<CheckReport> = {}): CheckReport {
  return {
    baseUrl: 'https://h',
    specFile: 'openapi/openapi.yaml',
    durationMs: 12,
    requests: 3,
    endpoints: [],
    violations: [],
    unreachable: undefined,
    hints: [],
    refused: false,
    ...over,
  };
}
