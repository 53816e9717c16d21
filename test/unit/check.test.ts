import { describe, expect, it } from 'vitest';
import * as check from '../../src/check.js';
import { DEFAULTS } from '../../src/server/config.js';

describe('workplace-admin-stub/check: the contract checker for programs', () => {
  it('exports exactly loadContract, runCheck and exitCode', () => {
    expect(Object.keys(check).sort()).toEqual(['exitCode', 'loadContract', 'runCheck']);
  });

  it('loads the spec once and checks a deployment: nothing at an address that is no http(s) URL, exit 2', async () => {
    const contract = await check.loadContract(DEFAULTS.specFile);
    const report = await check.runCheck(contract, {
      baseUrl: 'ftp://nowhere.test',
      headers: {},
      timeoutMs: 1000,
      concurrency: 1,
      maxPages: 1,
      only: ['desk'],
    });
    expect(report.unreachable).toMatch(/not an http\(s\) URL: ftp:/);
    expect(report.endpoints.map((e) => e.endpoint)).toEqual(['GET /api/v1/desk']);
    expect(check.exitCode(report)).toBe(2);
  });
});
