import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_RULES,
  CRAWL_RULES,
  DRIFT_RULES,
  ITEM_RULES,
  ITEM_URL_RULES,
  PROBE_RULES,
  RULES,
  type RuleId,
} from '../../src/contract/rules.js';
import { ROOT } from '../cli-helpers.js';

const ids = Object.keys(RULES) as RuleId[];

describe('the rule catalogue', () => {
  it('every rule is in exactly one group (so JUnit names a testcase for it on every run)', () => {
    const groups = [ANSWER_RULES, CRAWL_RULES, ITEM_RULES, ITEM_URL_RULES, PROBE_RULES, DRIFT_RULES].flat();
    expect([...groups].sort()).toEqual([...ids].sort());
  });

  it('every rule says where it comes from and what it means', () => {
    for (const id of ids) {
      expect(RULES[id].source, id).not.toBe('');
      expect(RULES[id].text.length, id).toBeGreaterThan(20);
    }
  });

  // A check that was never seen to fail cannot be trusted: each rule is the expected outcome of a
  // test against a deployment broken for it.
  it('every rule is caught by a test against a broken deployment', async () => {
    const files = [
      `${ROOT}test/integration/checker.test.ts`,
      ...(await readdir(`${ROOT}test/contract`))
        .filter((f) => f.endsWith('.test.ts') && f !== 'rules.test.ts')
        .map((f) => `${ROOT}test/contract/${f}`),
    ];
    const text = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n');
    expect(ids.filter((id) => !text.includes(`'${id}'`))).toEqual([]);
  });
});
