import { describe, expect, it } from 'vitest';
import {
  type Authenticator,
  authenticate,
  authenticateHeader,
  authenticatorsOf,
} from '../../../../src/core/drf/authentication.js';
import { recordedTable } from '../recorded/recording.js';

const TOKEN: Authenticator = { kind: 'token', keyword: 'Token' };
const SESSION: Authenticator = { kind: 'session' };
const BASIC: Authenticator = { kind: 'basic' };
const DEPLOYMENT = [TOKEN, SESSION];
const STOCK = [SESSION, BASIC];
const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');

// Expected answers as DRF 3.15's TokenAuthentication, SessionAuthentication and
// BasicAuthentication give them (rest_framework/authentication.py), with no user and no session.
describe('authenticate: each authentication class in turn', () => {
  it.each<[string, readonly Authenticator[], string | undefined, ReadonlySet<string> | undefined, string]>([
    ['no header: anonymous, the session read', DEPLOYMENT, undefined, undefined, 'anonymous session'],
    ['any token without --tokens: a user, the session never read', DEPLOYMENT, 'Token abc', undefined, 'user'],
    ['a listed token', DEPLOYMENT, 'Token k1', new Set(['k1']), 'user'],
    ['the keyword in any case, spaces around', DEPLOYMENT, '  tOKEN   k1 ', new Set(['k1']), 'user'],
    ['an unlisted token', DEPLOYMENT, 'Token nope', new Set(['k1']), 'Invalid token.'],
    ['the keyword alone', DEPLOYMENT, 'Token', undefined, 'Invalid token header. No credentials provided.'],
    [
      'a key with a space',
      DEPLOYMENT,
      'Token a b',
      undefined,
      'Invalid token header. Token string should not contain spaces.',
    ],
    [
      'a key whose bytes are not UTF-8',
      DEPLOYMENT,
      'Token \u00ff\u00fe',
      undefined,
      'Invalid token header. Token string should not contain invalid characters.',
    ],
    ['Bearer: not the keyword, anonymous', DEPLOYMENT, 'Bearer abc', undefined, 'anonymous session'],
    [
      'Basic where no BasicAuthentication is declared: anonymous',
      DEPLOYMENT,
      `Basic ${b64('a:b')}`,
      undefined,
      'anonymous session',
    ],
    [
      'Basic with BasicAuthentication: no such user',
      STOCK,
      `Basic ${b64('a:b')}`,
      undefined,
      'Invalid username/password.',
    ],
    ['Basic without credentials', STOCK, 'Basic', undefined, 'Invalid basic header. No credentials provided.'],
    [
      'Basic, not base64 of user:password',
      STOCK,
      `Basic ${b64('nocolon')}`,
      undefined,
      'Invalid basic header. Credentials not correctly base64 encoded.',
    ],
    ['a token where no TokenAuthentication is declared', STOCK, 'Token abc', undefined, 'anonymous session'],
    ['no authentication class at all', [], 'Token abc', undefined, 'anonymous'],
  ])('%s', (_name, classes, header, tokens, want) => {
    const a = authenticate(
      classes,
      { authorization: header, sessionKey: undefined, csrf: () => undefined },
      { tokens, sessions: undefined },
    );
    const got = a.error?.detail ?? `${a.user ? 'user' : 'anonymous'}${a.sessionRead ? ' session' : ''}`;
    expect(got).toBe(want);
  });

  it.each<[string, string | undefined, string | undefined, string]>([
    ['a logged-in session, CSRF passed: a user', 'k-logged-in', undefined, 'user session'],
    [
      'a logged-in session, CSRF refused: 403',
      'k-logged-in',
      'CSRF cookie not set.',
      'CSRF Failed: CSRF cookie not set.',
    ],
    ['an unknown session: anonymous, no CSRF asked', 'k-unknown', 'never asked', 'anonymous session'],
    ['no session cookie', undefined, 'never asked', 'anonymous session'],
  ])('SessionAuthentication: %s', (_name, key, reason, want) => {
    const a = authenticate(
      DEPLOYMENT,
      { authorization: undefined, sessionKey: key, csrf: () => reason },
      { tokens: undefined, sessions: new Set(['k-logged-in']) },
    );
    expect(a.error?.detail ?? `${a.user ? 'user' : 'anonymous'}${a.sessionRead ? ' session' : ''}`).toBe(want);
    if (a.error) expect(a.error.status).toBe(403);
  });

  it.each<[readonly Authenticator[], string | undefined]>([
    [DEPLOYMENT, 'Token'],
    [STOCK, undefined],
    [[BASIC], 'Basic realm="api"'],
    [[], undefined],
  ])('the first class decides WWW-Authenticate (%j → %s)', (classes, header) => {
    expect(authenticateHeader(classes)).toBe(header);
  });

  it('reads the classes from the spec, in the order of securitySchemes', () => {
    const doc = {
      components: {
        securitySchemes: {
          tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', 'x-token-keyword': 'Bearer' },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
          basicAuth: { type: 'http', scheme: 'basic' },
          jwt: { type: 'http', scheme: 'bearer' },
        },
      },
    };
    expect(authenticatorsOf(doc)).toEqual([{ kind: 'token', keyword: 'Bearer' }, SESSION, BASIC]);
  });
});

const { cases, replay } = recordedTable('drf/authentication.json');

describe('authentication, as the reference deployment answers (recorded in ../recorded/drf/authentication.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
