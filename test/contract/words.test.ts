// The contract's reports count in words that agree with their numbers: "1 endpoint checked",
// "1 violation of 1 rule", "1 request", "1 answer" (and 0 or 2 of anything in the plural).
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/contract/checker.js';
import { loadContract } from '../../src/contract/load.js';
import { summaryLine, textReport } from '../../src/contract/reporters.js';
import { SPEC } from '../helpers.js';
import { deployment, EMPTY_PAGE, sendJson, testProxy } from './deployments.js';

describe('the reports, from real runs', () => {
  it('one collection with one violation: "1 endpoint checked with 2 requests … 1 violation of 1 rule", "1 page, 1 item"', async () => {
    const contract = await loadContract(SPEC);
    // A first page whose previous is not null: envelope.first-previous, once.
    const d = await deployment((_req, res, { origin }) =>
      sendJson(res, 200, { count: 1, next: null, previous: `${origin}/api/v1/employee`, results: [{ pk: 1 }] }),
    );
    try {
      const report = await runCheck(contract, {
        baseUrl: d.base,
        headers: {},
        timeoutMs: 3000,
        concurrency: 1,
        maxPages: 5,
        only: ['employee'],
      });
      expect(report.violations.map((v) => v.rule)).toEqual(['envelope.first-previous']);
      expect(summaryLine(report)).toMatch(
        /^1 endpoint checked with 2 requests in \d+ ms: 0 passed, 1 failed; 1 violation of 1 rule$/,
      );
      expect(textReport(report)).toMatch(/GET \/api\/v1\/employee.* 1 page, 1 item/);
    } finally {
      await d.close();
    }
  });

  it('a proxy that forwarded one request: "1 request, 1 answer validated", "1 answer"', async () => {
    const contract = await loadContract(SPEC);
    const d = await deployment((_req, res) => sendJson(res, 200, EMPTY_PAGE));
    const proxy = await testProxy(contract, d.base, { maxBody: 1024 * 1024 });
    try {
      await (await fetch(`${proxy.url}/api/v1/employee`)).text();
      const text = (await proxy.stop()).text();
      expect(text).toMatch(/: 1 request, 1 answer validated, 0 without an answer; 0 violations\n/);
      expect(text).toMatch(/✓ GET \/api\/v1\/employee: 1 answer\n/);
    } finally {
      await d.close();
    }
  });
});
