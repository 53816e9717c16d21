import { describe, expect, it } from 'vitest';
import {
  type CorsPolicy,
  crossSiteWrite,
  LOOPBACK_CORS,
  originAllowed,
  preflight,
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
