import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../../src/load/limits.js';
import { parseYamlText } from '../../../src/load/yaml-text.js';
import { scanDocument } from '../../../src/openapi/document-scan.js';

describe('spec files: a repeated key is an error with its place', () => {
  it.each([
    ['at the top', 'openapi: 3.1.0\ninfo: {title: x}\npaths: {}\ninfo: {title: y}\n', ['line 4:1']],
    ['in a nested map', 'paths:\n  /a:\n    get: {}\n    get: {}\n', ['line 4:5']],
    ['in a flow map inside a list', 'tags:\n  - {name: a, name: b}\n', ['line 2:15']],
    ['twice', 'a: 1\nb: 2\na: 3\nb: 4\n', ['line 3:1', 'line 4:1']],
  ])('%s', (_name, text, places) => {
    const r = parseYamlText(text, DEFAULT_LOAD_LIMITS);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems.map((p) => `${p.place}: ${p.reason}`).sort()).toEqual(
        places.map((p) => `${p}: Map keys must be unique`),
      );
  });

  it('a value is handed to the bundler only when it is what js-yaml reads (an aliased map is read by yaml)', () => {
    const read = parseYamlText('a: &x {k: 1}\nb: *x\n', DEFAULT_LOAD_LIMITS);
    expect(read).toEqual({
      ok: true,
      asBundlerReads: false,
      value: { a: { k: 1 }, b: { k: 1 } },
      scan: { extensions: [], formats: [], identifies: false, writeOnly: false },
    });
  });

  it('the same key in different maps is fine', () => {
    expect(parseYamlText('a: {x: 1}\nb: {x: 2}\n', DEFAULT_LOAD_LIMITS)).toEqual({
      ok: true,
      asBundlerReads: true,
      value: { a: { x: 1 }, b: { x: 2 } },
      scan: { extensions: [], formats: [], identifies: false, writeOnly: false },
    });
  });
});

describe("spec files: a number JSON cannot hold is an error with its place (OpenAPI's YAML is limited to JSON's values)", () => {
  it.each([
    ['.inf as a maximum', 'schema:\n  type: number\n  maximum: .inf\n', [['line 3:12', '.inf']]],
    [
      '-.Inf and .NaN in a flow map',
      'x-range: {low: -.Inf, none: .NaN}\n',
      [
        ['line 1:16', '-.Inf'],
        ['line 1:29', '.NaN'],
      ],
    ],
    // A file with aliases is read by yaml, not js-yaml: yaml also reads a number past a double's range as infinite.
    [
      'in a file with aliases, and a number past a double',
      'a: &x {k: 1}\nb: *x\nc: .nan\nd: 1.0e400\n',
      [
        ['line 3:4', '.nan'],
        ['line 4:4', '1.0e400'],
      ],
    ],
  ])('%s', (_name, text, found) => {
    const r = parseYamlText(text, DEFAULT_LOAD_LIMITS);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems.map((p) => [p.place, p.reason.split(' is not')[0]])).toEqual(
        found.map(([place, source]) => [place, JSON.stringify(source)]),
      );
  });

  it('a quoted .inf is a string, and a large finite number a number', () => {
    expect(parseYamlText("a: '.inf'\nb: 1e300\nc: -0.5\n", DEFAULT_LOAD_LIMITS)).toEqual({
      ok: true,
      asBundlerReads: true,
      value: { a: '.inf', b: 1e300, c: -0.5 },
      scan: { extensions: [], formats: [], identifies: false, writeOnly: false },
    });
  });
});

describe('spec files: an alias inside the node its anchor names (a value containing itself) is an error with its place', () => {
  it.each<[string, string, string]>([
    ['directly', 'A: &a\n  type: object\n  properties:\n    self: *a\n', 'line 4:11'],
    ['two levels down, in flow style', 'A: &a {properties: {b: {items: [1, *a]}}}\n', 'line 1:36'],
    ['through a second anchor', 'A: &a\n  b: &b\n    c: *a\n', 'line 3:8'],
  ])('%s', (_name, text, place) => {
    const r = parseYamlText(text, DEFAULT_LOAD_LIMITS);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems).toEqual([
        {
          place,
          reason: expect.stringMatching(
            /^alias \*a stands inside the node its anchor names: .*use \$ref$/,
          ) as unknown as string,
        },
      ]);
  });

  it('an alias of a node it does not stand in is read, repeated (a sibling, a node before)', () => {
    expect(parseYamlText('A: &a {x: 1}\nB: {y: *a}\nC: &c {z: *a}\nD: *c\n', DEFAULT_LOAD_LIMITS)).toEqual({
      ok: true,
      asBundlerReads: false,
      value: { A: { x: 1 }, B: { y: { x: 1 } }, C: { z: { x: 1 } }, D: { z: { x: 1 } } },
      scan: { extensions: [], formats: [], identifies: false, writeOnly: false },
    });
  });

  it.each<[string, string]>([
    [
      'read quickly (js-yaml)',
      'info: {x-logo: 1}\ncomponents:\n  schemas:\n    A: {$id: "urn:a", properties: {p: {writeOnly: true, format: own, x-p: [1, {x-deep: 2}]}}}\n    B: {writeOnly: false, x-: 3}\n',
    ],
    [
      'read carefully (yaml: an aliased map)',
      'base: &b {x-logo: 1}\nmore: *b\ncomponents:\n  schemas:\n    A: {$id: "urn:a", properties: {p: {writeOnly: true, format: own, x-p: [1, {x-deep: 2}]}}}\n    B: {writeOnly: false, x-: 3}\n',
    ],
  ])('tells what the contract registers the file with, %s, as a walk of its value does', (_n, text) => {
    const read = parseYamlText(text, DEFAULT_LOAD_LIMITS);
    if (!read.ok) throw new Error('not read');
    expect({ ...read.scan, extensions: [...read.scan.extensions].sort() }).toEqual({
      extensions: ['x-', 'x-deep', 'x-logo', 'x-p'],
      formats: ['own'],
      identifies: true,
      writeOnly: true,
    });
    const walked = scanDocument(read.value);
    expect({ ...read.scan, extensions: [...read.scan.extensions].sort() }).toEqual({
      ...walked,
      extensions: [...walked.extensions].sort(),
    });
    expect(parseYamlText('a: {$anchor: x, writeOnly: "true"}\n', DEFAULT_LOAD_LIMITS)).toMatchObject({
      scan: { extensions: [], formats: [], identifies: true, writeOnly: false },
    });
  });
});
