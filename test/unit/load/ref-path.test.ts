import { describe, expect, it } from 'vitest';
import { join, LazyPath } from '../../../src/load/ref-path.js';

describe("join: the bundler's Pointer.join(base, token)", () => {
  it.each<[string, string, string]>([
    ['file:///a.yaml', 'paths', 'file:///a.yaml#/paths'],
    ['file:///a.yaml#', 'paths', 'file:///a.yaml#/paths'],
    ['file:///a.yaml#/paths', '/api/v1/desk', 'file:///a.yaml#/paths/~1api~1v1~1desk'],
    ['#/x', 'a~b', '#/x/a~0b'],
    ['#/x', 'a b%', '#/x/a%20b%25'],
    ['#/x', 'é', '#/x/%C3%A9'],
    ['#/x', '0', '#/x/0'],
  ])('%s + %j', (base, token, want) => {
    expect(join(base, token)).toBe(want);
    // The same token again (its encoding kept): the same answer.
    expect(join(base, token)).toBe(want);
  });
});

describe('LazyPath: a path made a string only when asked', () => {
  it('is the joined path of its parents, and knows its root', () => {
    const a = new LazyPath('file:///spec.yaml#', 'paths');
    const b = new LazyPath(a, '/api/');
    const c = new LazyPath(b, 'get');
    expect(String(c)).toBe('file:///spec.yaml#/paths/~1api~1/get');
    expect(`${b}`).toBe('file:///spec.yaml#/paths/~1api~1');
    expect([a.root, b.root, c.root]).toEqual(['file:///spec.yaml#', 'file:///spec.yaml#', 'file:///spec.yaml#']);
    expect(c.parent).toBe(b);
    expect(c.key).toBe('get');
  });
});
