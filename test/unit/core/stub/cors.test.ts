import { describe, expect, it } from 'vitest';
import { DJANGO_HEADERS } from '../../../../src/core/django/http.js';
import type { CoreAnswer } from '../../../../src/core/request.js';
import {
  type CorsPolicy,
  crossSiteWrite,
  isPreflight,
  LOOPBACK_CORS,
  originAllowed,
  preflight,
  withCors,
} from '../../../../src/core/stub/cors.js';

const headers = (h: Record<string, string>) => (n: string) => h[n];
const ANY: CorsPolicy = { mode: 'stub', origins: 'any', extra: [] };
const LAN: CorsPolicy = { mode: 'stub', origins: 'loopback', extra: ['http://192.168.1.20:5173'] };
const DEPLOYMENT: CorsPolicy = { mode: 'deployment', frontendOrigin: 'https://app.team.lcog.org' };
const OFF: CorsPolicy = { mode: 'off' };

describe('which origins the stub lets read its answers', () => {
  it.each<[CorsPolicy, string, boolean]>([
    [LOOPBACK_CORS, 'http://localhost:5173', true],
    [LOOPBACK_CORS, 'http://localhost', true],
    [LOOPBACK_CORS, 'https://app.localhost:8443', true],
    [LOOPBACK_CORS, 'http://127.0.0.1:3000', true],
    [LOOPBACK_CORS, 'http://[::1]:9000', true],
    [LOOPBACK_CORS, 'null', false],
    [LOOPBACK_CORS, '', false],
    [LOOPBACK_CORS, 'http://localhost.attacker.example', false],
    [LOOPBACK_CORS, 'http://127.0.0.1.attacker.example', false],
    [LOOPBACK_CORS, 'http://attacker.example', false],
    [LOOPBACK_CORS, 'file://', false],
    [LAN, 'http://192.168.1.20:5173', true],
    [LAN, 'http://192.168.1.20:5174', false],
    [ANY, 'null', true],
    [DEPLOYMENT, 'https://app.team.lcog.org', false],
    [OFF, 'http://localhost:5173', false],
  ])('%j: %s → %s', (policy, origin, want) => {
    expect(originAllowed(policy, origin)).toBe(want);
  });

  it('a preflight from another origin gets no CORS header; the headers asked for are echoed only as tokens', () => {
    const evil = preflight(
      LOOPBACK_CORS,
      headers({ origin: 'http://attacker.example', 'access-control-request-method': 'POST' }),
    );
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const odd = preflight(
      LOOPBACK_CORS,
      headers({ origin: 'http://localhost:5173', 'access-control-request-headers': 'x-a\r\nSet-Cookie: x=1' }),
    );
    expect(odd.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(odd.headers['access-control-allow-headers']).toBeUndefined();
  });

  it.each<[string, CorsPolicy, string, Record<string, string>, boolean]>([
    [
      'a form POST from another site',
      LOOPBACK_CORS,
      'POST',
      { origin: 'http://attacker.example', 'content-type': 'application/x-www-form-urlencoded' },
      true,
    ],
    [
      'a text/plain POST from a sandboxed page',
      LOOPBACK_CORS,
      'POST',
      { origin: 'null', 'content-type': 'text/plain' },
      true,
    ],
    [
      'a multipart DELETE from another site',
      LOOPBACK_CORS,
      'DELETE',
      { origin: 'http://attacker.example', 'content-type': 'multipart/form-data; boundary=x' },
      true,
    ],
    ['even with CORS off', OFF, 'POST', { origin: 'http://attacker.example', 'content-type': 'text/plain' }, true],
    [
      'a JSON POST (a preflight came first)',
      LOOPBACK_CORS,
      'POST',
      { origin: 'http://attacker.example', 'content-type': 'application/json' },
      false,
    ],
    [
      'a form POST from the dev server',
      LOOPBACK_CORS,
      'POST',
      { origin: 'http://localhost:5173', 'content-type': 'application/x-www-form-urlencoded' },
      false,
    ],
    [
      'a form POST without Origin (curl)',
      LOOPBACK_CORS,
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded' },
      false,
    ],
    ['a GET', LOOPBACK_CORS, 'GET', { origin: 'http://attacker.example' }, false],
    [
      "the deployment's own CORS (--frontend-origin)",
      DEPLOYMENT,
      'POST',
      { origin: 'http://attacker.example', 'content-type': 'text/plain' },
      false,
    ],
  ])('cross-site write: %s', (_name, policy, method, h, want) => {
    expect(crossSiteWrite(policy, method, headers(h))).toBe(want);
  });
});

describe("the stub's CORS headers on an answer", () => {
  const answer: CoreAnswer = {
    status: 200,
    headers: { 'content-type': 'application/json', vary: 'Accept' },
    body: '{}',
  };
  const cors = (origin: string) => ({
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'Allow, Content-Length, Location, Vary',
  });
  it.each<[string, CorsPolicy, Record<string, string>, Record<string, string> | undefined]>([
    [
      'an allowed origin echoed, with credentials; Vary as it was',
      LOOPBACK_CORS,
      { origin: 'http://localhost:5173' },
      cors('http://localhost:5173'),
    ],
    ['any origin, null too, with origins any', ANY, { origin: 'null' }, cors('null')],
    ['null never by default', LOOPBACK_CORS, { origin: 'null' }, undefined],
    ['another origin: none', LOOPBACK_CORS, { origin: 'http://attacker.example' }, undefined],
    ['no Origin: none', LOOPBACK_CORS, {}, undefined],
    ["the deployment's own policy: none added here", DEPLOYMENT, { origin: 'https://app.team.lcog.org' }, undefined],
    ['CORS off', OFF, { origin: 'http://localhost:5173' }, undefined],
  ])('%s', (_name, policy, h, added) => {
    const out = withCors(policy, answer, headers(h));
    expect(out).toEqual(added === undefined ? answer : { ...answer, headers: { ...answer.headers, ...added } });
    if (added === undefined) expect(out).toBe(answer);
  });

  it('an answer that has its own Access-Control-Allow-Origin is left as it is', () => {
    const own = { ...answer, headers: { ...answer.headers, 'access-control-allow-origin': 'https://x' } };
    expect(withCors(ANY, own, headers({ origin: 'http://localhost' }))).toBe(own);
  });
});

describe('preflights', () => {
  it.each<[string, string, Record<string, string>, boolean]>([
    [
      'OPTIONS with Origin and Access-Control-Request-Method',
      'OPTIONS',
      { origin: 'o', 'access-control-request-method': 'PUT' },
      true,
    ],
    ['an empty requested method still asks', 'OPTIONS', { origin: 'o', 'access-control-request-method': '' }, true],
    ['OPTIONS without Origin', 'OPTIONS', { 'access-control-request-method': 'PUT' }, false],
    ['OPTIONS without a requested method', 'OPTIONS', { origin: 'o' }, false],
    ['a GET', 'GET', { origin: 'o', 'access-control-request-method': 'PUT' }, false],
  ])('isPreflight: %s', (_name, method, h, want) => {
    expect(isPreflight(method, headers(h))).toBe(want);
  });

  it.each<[string, CorsPolicy, Record<string, string>, Record<string, string>]>([
    [
      'from an allowed origin: every method, the headers asked for, ten minutes',
      LOOPBACK_CORS,
      {
        origin: 'http://127.0.0.1:3000',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type, x-csrftoken,X-Stub-Session',
      },
      {
        ...DJANGO_HEADERS,
        'access-control-allow-origin': 'http://127.0.0.1:3000',
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
        'access-control-max-age': '600',
        'access-control-allow-headers': 'content-type, x-csrftoken,X-Stub-Session',
      },
    ],
    [
      'no headers asked for: none allowed',
      LAN,
      { origin: 'http://192.168.1.20:5173', 'access-control-request-method': 'GET' },
      {
        ...DJANGO_HEADERS,
        'access-control-allow-origin': 'http://192.168.1.20:5173',
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
        'access-control-max-age': '600',
      },
    ],
    [
      'from any other origin: a 204 without CORS headers',
      LOOPBACK_CORS,
      { origin: 'null', 'access-control-request-method': 'GET' },
      { ...DJANGO_HEADERS },
    ],
    [
      'with CORS off',
      OFF,
      { origin: 'http://localhost', 'access-control-request-method': 'GET' },
      { ...DJANGO_HEADERS },
    ],
  ])('preflight: %s', (_name, policy, h, want) => {
    expect(preflight(policy, headers(h))).toEqual({ status: 204, headers: want, body: '' });
  });
});
