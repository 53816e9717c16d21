import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { itemPathParts } from '../../../src/core/django/urls.js';
import { oneByte } from '../../../src/core/one-byte.js';
import { prepareItem } from '../../../src/core/prepared-items.js';
import { ask, coreOf, SPEC, stateFor, testConfig, v8Storage } from '../../helpers.js';

const storage = v8Storage;

/** A string cut from a text that holds a character past U+00FF, as a spec's are. */
const cut = (s: string) => `\u2014${s}`.slice(1);

describe('oneByte: a text stored one byte a character where its characters allow', () => {
  it('a string cut from a text with a character past U+00FF is two-byte, whatever it holds', () => {
    expect(storage(cut('/api/v1/desk/with/a/longer/path/'))).toBe('two-byte');
    expect(storage('/api/v1/desk/with/a/longer/path/')).toBe('one-byte');
  });

  it.each([
    ['ASCII', '/api/v1/desk/with/a/longer/path/'],
    ['Latin-1', 'caf\u00e9 cr\u00e8me, na\u00efve r\u00e9sum\u00e9'],
    ['quotes and escapes', 'a "quoted" \\ back\\slash\ttab\nline'],
  ])('%s: the same characters, one byte each', (_name, text) => {
    const made = oneByte(cut(text));
    expect(made).toBe(text);
    expect(storage(made)).toBe('one-byte');
  });

  it('a text with a character past U+00FF keeps it (two bytes each)', () => {
    const text = 'desk \u2014 floor 4, \u{1F600} and \u2028';
    expect(oneByte(text)).toBe(text);
    expect(storage(oneByte(text))).toBe('two-byte');
  });
});

describe('what is kept to be served is one byte a character', () => {
  // Property names first met cut from a two-byte text (as a YAML parser cuts a spec's) stay
  // two-byte for the process: V8's table of names keeps the first copy. (Names made here, met
  // nowhere before: a literal of this file would be in the table first, one-byte.)
  const unique = String(process.pid) + String(Date.now());
  const [building, floor] = [cut(`building_${unique}`), cut(`floor_${unique}`)];
  const names = { [building]: 1, [floor]: 2 };
  const opts = { fields: ['pk', building, floor], withUrl: true, pkField: 'pk' };

  it('an item prepared from a value', () => {
    expect(Object.keys(names).map(storage)).toEqual(['two-byte', 'two-byte']);
    expect(storage(JSON.stringify({ [building]: 'S' }))).toBe('two-byte');
    const value = { pk: 1, [building]: 'S', [floor]: 4 };
    expect(storage(prepareItem(value, opts).json)).toBe('one-byte');
    expect(prepareItem(value, opts).json).toBe(`{"pk":1,"building_${unique}":"S","floor_${unique}":4}`);
  });

  it("a collection's item path around its pk", () => {
    const detail = { path: cut('/api/v1/zq-desk-collection/{pk}/tail-of-path'), pkParam: 'pk' };
    const [before, after] = itemPathParts(detail);
    expect([before, after]).toEqual(['/api/v1/zq-desk-collection/', '/tail-of-path']);
    expect([storage(before), storage(after)]).toEqual(['one-byte', 'one-byte']);
    expect(itemPathParts(detail)[0]).toBe(before);
  });
});

describe("the core's answers on the bundled spec, whose text holds characters past U+00FF", () => {
  it.each([
    ['the desk list', '/api/v1/desk?format=api'],
    ['a page of it, filtered', '/api/v1/desk?format=api&building=S&page=2'],
    ['a desk', '/api/v1/desk/181?format=api'],
  ])('%s is one-byte text', async (_name, url) => {
    expect(/[^\u0000-\u00ff]/.test(readFileSync(SPEC, 'utf8'))).toBe(true);
    const state = await stateFor(testConfig());
    const answer = ask(coreOf(state), url);
    expect(answer.status).toBe(200);
    expect(storage(String(answer.body))).toBe('one-byte');
  });
});
