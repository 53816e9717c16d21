import { describe, expect, it } from 'vitest';
import {
  CorsPolicy,
  corsHeaders,
  corsOrigin,
  hasOwnCors,
  preflightHeaders,
} from '../../../../src/contract/proxy/cors.js';

describe("the proxy's CORS", () => {
  const policy = new CorsPolicy(['https://dev.example.org']);
  it.each<[string, string | undefined, string | undefined]>([
    ['no Origin', undefined, undefined],
    ['localhost, any port', 'http://localhost:5173', 'http://localhost:5173'],
    ['a subdomain of localhost', 'https://app.localhost', 'https://app.localhost'],
    ['127.0.0.1', 'http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['[::1]', 'http://[::1]:8080', 'http://[::1]:8080'],
    ['an origin given', 'https://dev.example.org', 'https://dev.example.org'],
    ['another origin', 'https://evil.example', undefined],
    ['null (sandboxed and file: pages)', 'null', undefined],
  ])('allowed: %s', (_name, origin, want) => {
    expect(policy.allowed(origin)).toBe(want);
  });

  it.each<[string, { ok: boolean; origin?: string; error?: RegExp }]>([
    ['https://Dev.Example.org:8443', { ok: true, origin: 'https://dev.example.org:8443' }],
    ['http://192.168.1.20:5173', { ok: true, origin: 'http://192.168.1.20:5173' }],
    ['null', { ok: false, error: /never allowed/ }],
    ['https://dev.example.org/path', { ok: false, error: /without a path, query or user/ }],
    ['ftp://x', { ok: false, error: /http\(s\):\/\/host\[:port\]/ }],
  ])('corsOrigin(%s)', (value, want) => {
    const r = corsOrigin(value);
    expect(r.ok).toBe(want.ok);
    if (r.ok) expect(r.origin).toBe(want.origin);
    else expect(r.error).toMatch(want.error as RegExp);
  });

  it('hasOwnCors: any Access-Control-* header of the upstream', () => {
    expect(hasOwnCors({ 'access-control-allow-origin': '*' })).toBe(true);
    expect(hasOwnCors({ vary: 'Origin', 'content-type': 'x' })).toBe(false);
  });

  it.each<[string, string | string[] | undefined, string]>([
    ['no Vary', undefined, 'Origin'],
    ['an empty Vary', '  ', 'Origin'],
    ['Vary without Origin', 'Accept, Cookie', 'Accept, Cookie, Origin'],
    ['Vary with Origin', 'Accept, origin', 'Accept, origin'],
    ['Vary: *', '*', '*'],
    ['repeated Vary headers', ['Accept', 'Cookie'], 'Accept, Cookie, Origin'],
  ])('corsHeaders: %s', (_name, vary, want) => {
    expect(corsHeaders('http://localhost:1', vary)).toEqual({
      'access-control-allow-origin': 'http://localhost:1',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'x-contract-violations',
      vary: want,
    });
  });

  it.each<[string, string | undefined, string | undefined]>([
    ['header names echoed', ' authorization , x-stub-session ', 'authorization , x-stub-session'],
    ['none asked', undefined, undefined],
    ['anything but names is not echoed', 'x-a\r\nx-b: 1', undefined],
  ])('preflightHeaders: %s', (_name, asked, want) => {
    const h = preflightHeaders(
      'http://localhost:1',
      asked === undefined ? {} : { 'access-control-request-headers': asked },
    );
    expect(h['access-control-allow-headers']).toBe(want);
    expect(h['access-control-allow-origin']).toBe('http://localhost:1');
    expect(h['access-control-max-age']).toBe('600');
    expect(h.vary).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
  });
});
