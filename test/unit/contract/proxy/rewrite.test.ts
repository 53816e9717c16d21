import { describe, expect, it } from 'vitest';
import { BaseRewriter, isRewritable } from '../../../../src/contract/proxy/rewrite.js';

describe('BaseRewriter: one base for another, only where the base ends', () => {
  const r = new BaseRewriter('http://h:80', 'http://127.0.0.1:4011');
  it.each<[string, string, string]>([
    ['a link with a path', '{"next":"http://h:80/api?page=2"}', '{"next":"http://127.0.0.1:4011/api?page=2"}'],
    ['the base alone at the end', 'Location: http://h:80', 'Location: http://127.0.0.1:4011'],
    ['a longer port is another base', 'http://h:8000/api', 'http://h:8000/api'],
    ['a longer host is another base', 'http://h:80.evil/x', 'http://h:80.evil/x'],
    ['JSON’s escaped solidus', '"http:\\/\\/h:80\\/api"', '"http:\\/\\/127.0.0.1:4011\\/api"'],
    ['in any case', 'HTTP://H:80/x', 'http://127.0.0.1:4011/x'],
    [
      'before a quote, space, comma or angle bracket',
      `'http://h:80' http://h:80,<http://h:80>`,
      `'http://127.0.0.1:4011' http://127.0.0.1:4011,<http://127.0.0.1:4011>`,
    ],
    ['every occurrence', 'http://h:80/a http://h:80/b', 'http://127.0.0.1:4011/a http://127.0.0.1:4011/b'],
  ])('%s', (_name, text, want) => {
    expect(r.rewrite(text)).toBe(want);
  });

  it('a base with regex characters in it is taken literally', () => {
    expect(new BaseRewriter('http://a.b/x+y', 'P').rewrite('http://a.b/x+y/1 http://aXb/x+y/1')).toBe(
      'P/1 http://aXb/x+y/1',
    );
  });
});

describe('isRewritable: bodies the proxy can read as text', () => {
  it.each<[string, boolean]>([
    ['application/json', true],
    ['application/vnd.api+json; charset=utf-8', true],
    ['application/problem+json', true],
    ['text/html; charset=utf-8', true],
    ['  application/xml', true],
    ['application/javascript', true],
    ['image/png', false],
    ['application/octet-stream', false],
    ['', false],
  ])('%s: %s', (type, want) => {
    expect(isRewritable(type)).toBe(want);
  });
});
