import { describe, expect, it } from 'vitest';
import { BaseScope } from '../../../src/contract/scope.js';

describe('BaseScope: a deployment base and what lies on it', () => {
  it('takes the base apart: no trailing slash, no user info in href, the credentials decoded', () => {
    const s = new BaseScope('https://qa%40x:p%3Ass@Host.Example:443/workplace/');
    expect([s.href, s.origin, s.path, s.username, s.password]).toEqual([
      'https://host.example/workplace',
      'https://host.example',
      '/workplace',
      'qa@x',
      'p:ss',
    ]);
    expect(s.url('/api/v1/desk')).toBe('https://host.example/workplace/api/v1/desk');
    expect(new BaseScope(new URL('http://h:8000/')).href).toBe('http://h:8000');
  });

  const prefixed = new BaseScope('https://host/workplace');
  const root = new BaseScope('http://127.0.0.1:8000');
  it.each<[string, BaseScope, string, boolean]>([
    ['the base itself', prefixed, 'https://host/workplace', true],
    ['a path below it', prefixed, 'https://host/workplace/api/v1/desk?page=2', true],
    ['a sibling sharing the prefix text', prefixed, 'https://host/workplaces/api', false],
    ['.. resolved off the prefix', prefixed, 'https://host/workplace/../admin', false],
    ['%2e%2e resolved off the prefix', prefixed, 'https://host/workplace/%2e%2e/admin', false],
    ['an encoded slash nginx decodes', prefixed, 'https://host/workplace/..%2Fother', false],
    ['a double-encoded slash', prefixed, 'https://host/workplace/..%252Fother', false],
    ['an encoded backslash', prefixed, 'https://host/workplace/a%5Cb', false],
    ['a dot segment with a path parameter', prefixed, 'https://host/workplace/..;/admin', false],
    ['a double-encoded dot segment', prefixed, 'https://host/workplace/%252e%252e/admin', false],
    ['a malformed escape stays as it is', prefixed, 'https://host/workplace/a%zz', true],
    ['another scheme', prefixed, 'http://host/workplace/x', false],
    ['another port', root, 'http://127.0.0.1:8001/api', false],
    ['the default port written out', new BaseScope('https://host/'), 'https://HOST:443/api', true],
    ['user info of its own', root, 'http://u:p@127.0.0.1:8000/api', false],
    ['no URL at all', root, 'not a url', false],
    ['at the root, no prefix to leave', root, 'http://127.0.0.1:8000/..%2Fx', true],
  ])('contains: %s', (_name, scope, url, want) => {
    expect(scope.contains(url)).toBe(want);
    if (URL.canParse(url)) expect(scope.contains(new URL(url))).toBe(want);
  });

  it.each<[string, unknown, boolean]>([
    ['an absolute link on the base', 'https://host/workplace/api/v1/desk/1', true],
    ['its scheme in capitals', 'HTTPS://host/workplace/x', true],
    ['a relative link (no scheme)', '/workplace/api/v1/desk/1', false],
    ['a protocol-relative link', '//host/workplace/x', false],
    ['an absolute link off the base', 'https://evil/workplace/x', false],
    ['not a string', 12, false],
    ['null', null, false],
  ])('holdsLink: %s', (_name, link, want) => {
    expect(prefixed.holdsLink(link)).toBe(want);
  });

  it('answers the path of a url relative to the base, query kept', () => {
    expect(prefixed.relative(new URL('https://host/workplace/api/v1/desk?format=api'))).toBe('/api/v1/desk?format=api');
    expect(root.relative(new URL('http://127.0.0.1:8000/'))).toBe('/');
  });
});
