import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../../src/load/limits.js';
import { parseYamlText } from '../../../src/load/yaml-text.js';

describe('spec files: a repeated key is an error with its place', () => {
  it.each([
    ['at the top', 'openapi: 3.1.0\ninfo: {title: x}\npaths: {}\ninfo: {title: y}\n', ['line 4:1']],
    ['in a nested map', 'paths:\n  /a:\n    get: {}\n    get: {}\n', ['line 4:5']],
    ['in a flow map inside a list', 'tags:\n  - {name: a, name: b}\n', ['line 2:15']],
    ['twice', 'a: 1\nb: 2\na: 3\nb: 4\n', ['line 3:1', 'line 4:1']],
  ])('%s', (_name, text, places) => {
    const r = parseYamlText(text, DEFAULT_LOAD_LIMITS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => `${p.place}: ${p.reason}`).sort()).toEqual(places.map((p) => `${p}: Map keys must be unique`));
  });

  it('a value is handed to the bundler only when it is what js-yaml reads (an aliased map is read by yaml)', () => {
    const read = parseYamlText('a: &x {k: 1}\nb: *x\n', DEFAULT_LOAD_LIMITS);
    expect(read).toEqual({ ok: true, asBundlerReads: false, value: { a: { k: 1 }, b: { k: 1 } } });
  });

  it('the same key in different maps is fine', () => {
    expect(parseYamlText('a: {x: 1}\nb: {x: 2}\n', DEFAULT_LOAD_LIMITS)).toEqual({ ok: true, asBundlerReads: true, value: { a: { x: 1 }, b: { x: 2 } } });
  });
});
