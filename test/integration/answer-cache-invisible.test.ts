import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_KEY_HEADERS } from '../../src/core/answer.js';
import type { StubState } from '../../src/load/state.js';
import { buildApp } from '../../src/server/app.js';
import type { StubConfig } from '../../src/server/config.js';
import { listen, settled, stateFor, testConfig } from '../helpers.js';

/** One request of the corpus: headers as sent, a list so that a header may be empty, absent or twice. */
interface Ask {
  readonly name: string;
  readonly method: 'GET' | 'HEAD';
  readonly url: string;
  /** `undefined` value: the header is not sent at all (Host included). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

interface Wire {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const URLS = [
  '/api/v1/desk',
  '/api/v1/desk?format=api&page=2',
  '/api/v1/desk/3?format=json',
  '/api/v1/desk/999',
  '/api/v1/',
  // The deployment's router root and its site root (a plain Django redirect: no negotiation, no authentication).
  '/api/',
  '/',
  '/api/v1/desk.json',
  '/api/v1/nosuch',
  '/api/v1/desk?format=xml',
];

/** Each keyed header varied alone from a plain request: present with values, empty, absent, twice. */
const VARIANTS: [string, Record<string, string | string[] | undefined>][] = [
  ['plain', {}],
  ['Host absent', { host: undefined }],
  ['Host empty', { host: '' }],
  ['Host upper case', { host: 'STUB.test' }],
  ['Host with port', { host: 'stub.test:4010' }],
  ['Host invalid', { host: 'a b' }],
  ['Host IPv6', { host: '[::1]:8000' }],
  ['Host other', { host: 'staging.example.org' }],
  ['Host twice', { host: ['stub.test', 'evil.example'] }],
  ['X-Forwarded-Host empty', { 'x-forwarded-host': '' }],
  ['X-Forwarded-Host', { 'x-forwarded-host': 'proxy.example.org' }],
  ['X-Forwarded-Host invalid', { 'x-forwarded-host': 'bad host' }],
  ['X-Forwarded-Host twice', { 'x-forwarded-host': ['proxy.example.org', 'other.example.org'] }],
  ['X-Forwarded-Host joined', { 'x-forwarded-host': 'proxy.example.org, other.example.org' }],
  ['X-Forwarded-Proto empty', { 'x-forwarded-proto': '' }],
  ['X-Forwarded-Proto https', { 'x-forwarded-proto': 'https' }],
  ['X-Forwarded-Proto list', { 'x-forwarded-proto': 'https, http' }],
  ['Origin empty', { origin: '' }],
  ['Origin', { origin: 'http://localhost:5173' }],
  ['Origin null', { origin: 'null' }],
  ['Origin other', { origin: 'https://app.example.org' }],
  ['Accept empty', { accept: '' }],
  ['Accept json', { accept: 'application/json' }],
  ['Accept json indent', { accept: 'application/json; indent=4' }],
  ['Accept html', { accept: 'text/html' }],
  ['Accept any', { accept: '*/*' }],
  ['Accept xml', { accept: 'application/xml' }],
  ['Accept twice', { accept: ['text/html', 'application/json'] }],
  ['Authorization empty', { authorization: '' }],
  ['Authorization Basic', { authorization: 'Basic' }],
  ['Authorization Basic spaces', { authorization: 'Basic a b' }],
  ['Authorization Basic credentials', { authorization: 'Basic Zm9vOmJhcg==' }],
  ['Authorization Token', { authorization: 'Token abc' }],
  // TokenAuthentication's other answers: no key (401), a key with a space (401), its keyword in lower case.
  ['Authorization Token without a key', { authorization: 'Token' }],
  ['Authorization Token with spaces', { authorization: 'Token a b' }],
  ['Authorization token lower case', { authorization: 'token abc' }],
  ['Prefer empty', { prefer: '' }],
  ['Prefer delay 0', { prefer: 'delay=0' }],
  ['Access-Control-Request-Method', { 'access-control-request-method': 'GET' }],
  ['Access-Control-Request-Method empty', { 'access-control-request-method': '' }],
  ['Access-Control-Request-Headers', { 'access-control-request-headers': 'x-a' }],
  ['Accept-Encoding gzip', { 'accept-encoding': 'gzip' }],
  ['Accept-Encoding empty', { 'accept-encoding': '' }],
  // SessionMiddleware deletes the cookie of a session it does not find (Set-Cookie, Vary: Cookie).
  ['Cookie session', { cookie: 'sessionid=abc' }],
  ['Cookie session empty', { cookie: 'sessionid=' }],
  ['Cookie other', { cookie: 'csrftoken=x' }],
  ['Cookie empty', { cookie: '' }],
  // The stub's isolated sessions: by header or by cookie; a name it refuses is 400.
  ['X-Stub-Session', { 'x-stub-session': 'e2e-1' }],
  ['X-Stub-Session empty', { 'x-stub-session': '' }],
  ['X-Stub-Session invalid', { 'x-stub-session': 'a b' }],
  ['Cookie X-Stub-Session', { cookie: 'X-Stub-Session=e2e-1' }],
];

const CORPUS: Ask[] = URLS.flatMap((url) =>
  (['GET', 'HEAD'] as const).flatMap((method) =>
    VARIANTS.map(([name, headers]) => ({
      name: `${method} ${url} ${name}`,
      method,
      url,
      headers: { host: 'stub.test', ...headers },
    })),
  ),
);

function send(base: URL, agent: Agent, ask: Ask): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: base.hostname, port: base.port, method: ask.method, path: ask.url, agent, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          // The only header that may differ between two sendings of one answer.
          const { date: _date, ...headers } = res.headers;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('latin1') });
        });
      },
    );
    for (const [k, v] of Object.entries(ask.headers)) if (v !== undefined) req.setHeader(k, v);
    req.on('error', reject);
    req.end();
  });
}

/** The core's answer (no cache anywhere) as node:http would carry it. */
function coreWire(
  app: FastifyInstance,
  state: StubState,
  ask: Ask,
): { status: number; body: string; headers: Record<string, string> } {
  const headers = ask.headers;
  const answer = settled(
    app.coreOf(state).answer({
      method: ask.method,
      url: ask.url,
      header: (n) => {
        const v = headers[n];
        return Array.isArray(v) ? v.join(', ') : v;
      },
    }),
  );
  const body = Buffer.from(answer.body);
  return {
    status: answer.status,
    body: ask.method === 'HEAD' ? '' : body.toString('latin1'),
    headers: { ...answer.headers, 'content-length': String(body.length) },
  };
}

describe.each<[string, Partial<StubConfig>]>([
  ['the default server', { pageSize: 10 }],
  [
    'a server behind a trusted proxy with ALLOWED_HOSTS',
    { pageSize: 10, trustProxy: true, allowedHosts: ['stub.test', '.example.org'] },
  ],
  [
    'a server without CORS and a fixed base URL',
    { pageSize: 10, cors: { mode: 'off' }, baseUrl: 'https://api.example.org' },
  ],
])('the answer cache is invisible: %s', (_name, overrides) => {
  let app: FastifyInstance;
  let state: StubState;
  let base: URL;
  let agent: Agent;
  /** Each request's answer with nothing in the cache. */
  const cold = new Map<Ask, Wire>();

  beforeAll(async () => {
    const config = testConfig(overrides);
    state = await stateFor(config);
    app = await buildApp(config, { current: state });
    base = new URL(await listen(app));
    agent = new Agent({ keepAlive: true, maxSockets: 4 });
    for (const ask of CORPUS) {
      app.answerCache.clear();
      cold.set(ask, await send(base, agent, ask));
    }
  });
  afterAll(async () => {
    agent.destroy();
    await app.close();
  });

  it('every keyed header of the core is one the corpus varies', () => {
    for (const h of CACHE_KEY_HEADERS) expect(VARIANTS.some(([, v]) => h in v)).toBe(true);
  });

  it('a cold answer is the core answer, byte for byte', () => {
    for (const ask of CORPUS) {
      // Without Host, Node itself may answer (requireHostHeader); duplicates are merged by Node's rules.
      if (ask.headers.host === undefined || Object.values(ask.headers).some(Array.isArray)) continue;
      const got = cold.get(ask) as Wire;
      const want = coreWire(app, state, ask);
      expect({ status: got.status, body: got.body }, ask.name).toEqual({ status: want.status, body: want.body });
      // Node reads every Set-Cookie as a list.
      for (const [k, v] of Object.entries(want.headers))
        expect(got.headers[k], `${ask.name}: ${k}`).toEqual(k === 'set-cookie' ? [v] : v);
    }
  });

  it('every request, sent twice in every order with the cache warm and cold, gets its cold answer', async () => {
    // Forward then backward from an empty cache: for every two requests A and B of the corpus, B
    // is asked once while A's answer is kept (one of the two passes) and A once while B's is;
    // each is asked twice in a row (its own entry warm), and the whole again with everything warm.
    const passes = [CORPUS, [...CORPUS].reverse()];
    let cached = 0;
    for (const pass of passes) {
      app.answerCache.clear();
      for (const ask of pass) {
        for (let i = 0; i < 2; i++)
          expect(await send(base, agent, ask), `${ask.name} (sending ${i + 1})`).toEqual(cold.get(ask));
      }
      cached = Math.max(cached, app.answerCache.size);
      for (const ask of pass) expect(await send(base, agent, ask), `${ask.name} (warm)`).toEqual(cold.get(ask));
    }
    // The cache did keep answers (or this test could not fail).
    expect(cached).toBeGreaterThan(50);
  });
});
