import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS, nestingDepth } from '../../../src/load/limits.js';

describe('nestingDepth: the deepest nesting of [ and { outside strings', () => {
  it.each<[string, number]>([
    ['1', 0],
    ['[]', 1],
    ['{"a": [1, {"b": []}]}', 4],
    ['[[]] [[[]]]', 3],
    ['"[[[["', 0],
    ['["\\"[[", []]', 2],
    ['["\\\\", [[]]]', 3],
    ['{"a\\"": {"b": "}}}{{{"}}', 2],
  ])('%s → %d', (text, want) => {
    expect(nestingDepth(text)).toBe(want);
  });

  it('stops counting past the limit: an answer above it, whatever the rest', () => {
    const deep = `${'['.repeat(1000)}${']'.repeat(1000)}`;
    expect(nestingDepth(deep)).toBe(1000);
    expect(nestingDepth(deep, 10)).toBe(11);
    expect(nestingDepth('[[[]]]', 3)).toBe(3);
  });

  it('the default limits: frozen, 512 MiB, 256 levels, 100 aliases', () => {
    expect(DEFAULT_LOAD_LIMITS).toEqual({ maxFileBytes: 512 * 2 ** 20, maxDepth: 256, maxAliasCount: 100 });
    expect(Object.isFrozen(DEFAULT_LOAD_LIMITS)).toBe(true);
  });
});
