// The contract checker against the reference DRF deployment: a faithful deployment passes, and each
// planted fault is caught under the rule that names it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-helpers.js';
import { type Reference, referenceGate, startReference } from './drf-server.js';

interface CheckReport {
  ok: boolean;
  summary: string;
  violations: { rule: string }[];
}

async function check(url: string): Promise<{ code: number | null; report: CheckReport; stderr: string }> {
  const r = await runCli(['check', '--base-url', url, '--json'], { timeoutMs: 90_000 });
  let report: CheckReport;
  try {
    report = JSON.parse(r.stdout) as CheckReport;
  } catch {
    throw new Error(
      `check printed no JSON report (exit ${r.code}):\n${r.stdout.slice(0, 2000)}\n${r.stderr.slice(0, 2000)}`,
    );
  }
  return { code: r.code, report, stderr: r.stderr };
}

function rules(report: CheckReport): string[] {
  return [...new Set(report.violations.map((v) => v.rule))].sort();
}

const gate = referenceGate();
if (!gate.run && gate.skip)
  console.warn(`checker-vs-reference skipped: the reference deployment is unavailable: ${gate.why}`);

describe.skipIf(!gate.run && gate.skip)(
  'the contract checker against the reference DRF deployment (PAGE_SIZE 7)',
  () => {
    if (!gate.run && !gate.skip) {
      it('needs the reference deployment', () => {
        throw new Error(`the reference deployment is unavailable: ${gate.why}`);
      });
      return;
    }

    describe('a faithful deployment', () => {
      let ref: Reference;
      beforeAll(async () => {
        ref = await startReference({ pageSize: 7 });
      });
      afterAll(async () => {
        await ref?.stop();
      });

      it('passes: exit 0, no violation', async () => {
        const { code, report, stderr } = await check(ref.url);
        expect(report.violations, report.summary).toEqual([]);
        expect(report.ok).toBe(true);
        expect(code, stderr).toBe(0);
      }, 120_000);
    });

    const FAULTS: [fault: string, rule: RegExp, what: string][] = [
      ['missing-field', /^item\.fields$/, 'item.fields'],
      ['wrong-type', /^schema$/, 'schema'],
      ['other-host', /^urls\.base$/, 'urls.base'],
      ['server-error:employee', /^status$/, 'status'],
      ['count-lies', /^envelope\./, 'an envelope.* rule'],
    ];

    describe.each(FAULTS)('planted fault %s', (fault, rule, what) => {
      let ref: Reference;
      beforeAll(async () => {
        ref = await startReference({ pageSize: 7, fault });
      });
      afterAll(async () => {
        await ref?.stop();
      });

      it(`fails: exit 1, naming ${what}`, async () => {
        const { code, report, stderr } = await check(ref.url);
        expect(code, `${report.summary}\n${stderr}`).toBe(1);
        expect(report.ok).toBe(false);
        const named = rules(report);
        expect(
          named.some((r) => rule.test(r)),
          `the checker did not name ${what}; it named: ${named.join(', ') || 'nothing'}`,
        ).toBe(true);
      }, 120_000);
    });
  },
);
