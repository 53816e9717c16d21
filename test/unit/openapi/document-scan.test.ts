import { describe, expect, it } from 'vitest';
import { type DocumentScan, ScanCollector, scanDocument } from '../../../src/openapi/document-scan.js';

const none: DocumentScan = { extensions: [], formats: [], identifies: false, writeOnly: false };

describe('scanDocument: what a spec uses that its Ajv registration depends on', () => {
  it.each<[string, unknown, DocumentScan]>([
    ['not an object', 'text', none],
    ['null', null, none],
    ['an empty document', {}, none],
    [
      'extensions at any depth, each once, in the order met',
      { 'x-a': 1, paths: { '/a': { 'x-b': true, get: { 'x-a': 2 } } }, list: [{ 'x-c': null }] },
      { ...none, extensions: ['x-a', 'x-b', 'x-c'] },
    ],
    ['a member named x without the dash is no extension', { x: 1, xy: 2, 'x-': 3 }, { ...none, extensions: ['x-'] }],
    ['$id', { a: { $id: 'urn:x' } }, { ...none, identifies: true }],
    ['$anchor', { a: [{ $anchor: 'here' }] }, { ...none, identifies: true }],
    ['$dynamicAnchor', { $dynamicAnchor: 'meta' }, { ...none, identifies: true }],
    ['$ref alone identifies nothing', { $ref: '#/a', $schema: 'x' }, none],
    ['writeOnly: true', { p: { writeOnly: true } }, { ...none, writeOnly: true }],
    ['writeOnly: false, or a string', { p: { writeOnly: false }, q: { writeOnly: 'true' } }, none],
    [
      'formats, each once (a property named format too, if it holds a string)',
      { a: { format: 'uri' }, b: { format: 'date' }, c: { format: 'uri' }, properties: { format: { type: 'string' } } },
      { ...none, formats: ['uri', 'date'] },
    ],
  ])('%s', (_name, doc, want) => {
    expect(scanDocument(doc)).toEqual(want);
  });

  it('an object reached twice, or a cycle, is walked once', () => {
    const shared: Record<string, unknown> = { 'x-shared': 1 };
    shared.self = shared;
    expect(scanDocument({ a: shared, b: [shared, shared] })).toEqual({ ...none, extensions: ['x-shared'] });
  });
});

describe('ScanCollector: a scan gathered key by key, and scans added together', () => {
  it('key by key: what scanDocument finds in the same members', () => {
    const c = new ScanCollector();
    for (const [k, v] of [
      ['x-one', 1],
      ['format', 'email'],
      ['$anchor', 'a'],
      ['writeOnly', true],
      ['x-one', 2],
      ['format', 7],
    ] as const)
      c.key(k, v);
    expect(c.finish()).toEqual({ extensions: ['x-one'], formats: ['email'], identifies: true, writeOnly: true });
  });

  it('add: the union of two scans, the flags or-ed', () => {
    const c = new ScanCollector();
    c.key('x-a', 1);
    c.add({ extensions: ['x-a', 'x-b'], formats: ['uri'], identifies: false, writeOnly: true });
    c.add({ extensions: [], formats: ['uri', 'date'], identifies: true, writeOnly: false });
    expect(c.finish()).toEqual({
      extensions: ['x-a', 'x-b'],
      formats: ['uri', 'date'],
      identifies: true,
      writeOnly: true,
    });
  });
});
