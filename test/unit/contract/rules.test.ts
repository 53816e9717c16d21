import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../src/contract/json.js';
import {
  ANSWER_RULES,
  CRAWL_RULES,
  DRIFT_RULES,
  ITEM_RULES,
  ITEM_URL_RULES,
  PROBE_RULES,
  RULES,
} from '../../../src/contract/rules.js';

describe('the rule catalogue', () => {
  const groups = { ANSWER_RULES, CRAWL_RULES, ITEM_RULES, ITEM_URL_RULES, PROBE_RULES, DRIFT_RULES };

  it('every rule is in exactly one group, in catalogue order', () => {
    const grouped = Object.values(groups).flat();
    expect(new Set(grouped).size).toBe(grouped.length);
    expect([...grouped].sort()).toEqual(Object.keys(RULES).sort());
    const order = Object.keys(RULES);
    for (const [name, rules] of Object.entries(groups))
      expect(
        rules.map((r) => order.indexOf(r)),
        name,
      ).toEqual(rules.map((r) => order.indexOf(r)).sort((a, b) => a - b));
  });

  it.each(Object.entries(RULES))('%s names its source and says what it means', (_id, rule) => {
    expect(rule.source.trim()).not.toBe('');
    expect(rule.text.length).toBeGreaterThan(15);
  });

  it('the json rule states the depth limit it enforces', () => {
    expect(RULES.json.text).toContain(`at most ${MAX_JSON_DEPTH} levels`);
  });
});
