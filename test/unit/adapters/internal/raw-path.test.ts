import { describe, expect, it } from 'vitest';
import { anySpelling } from '../../../../src/adapters/internal/raw-path.js';

const matches = (path: string, pathname: string) => new RegExp(`^${anySpelling(path)}$`).test(pathname);

describe('anySpelling: every spelling of a decoded path in a WHATWG pathname', () => {
  it.each<[string, string, boolean]>([
    ['/api/v1/desk', '/api/v1/desk', true],
    ['/api/v1/desk', '/api/v1/d%65sk', true],
    ['/api/v1/desk', '/api/v1/d%65%73k', true],
    ['/api/v1/desk', '/%61pi%2Fv1/desk', true],
    ['/api/v1/desk', '/api/v1/d%65sk/', false],
    ['/api/v1/desk', '/api/v1/deskx', false],
    ['/api/v1/desk', '/API/v1/desk', false],
    ['/a.b', '/a.b', true],
    ['/a.b', '/aXb', false],
    ['/a+b(c)', '/a+b(c)', true],
    ['/a+b(c)', '/aab(c)', false],
    ['/é', '/%C3%A9', true],
    ['/é', '/%c3%a9', true],
    ['/é', '/%C3%a9', true],
    ['/é', '/é', false],
    ['', '', true],
  ])('%s matches %s: %s', (path, pathname, want) => {
    expect(matches(path, pathname)).toBe(want);
  });
});
