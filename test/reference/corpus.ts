// The differential corpus: a deterministic set of requests (no randomness but a fixed seed), each
// dimension covered against a sensible base, plus pairwise mixes. Each request names the server
// configuration (page size, proxy trust, allowed hosts, frontend origin) that the stub and the
// reference both run; both know the same valid tokens and session.
//
// Writes change state. Reads (GET, HEAD, OPTIONS and the like) are sent first, at once, against the
// fixtures. A write alone is sent after them, one at a time, and both servers are reset after it
// whenever either answered other than 4xx. A `sequence` (writes and reads that depend on each other)
// is sent in corpus order after both servers are reset.
import type { WireRequest } from './send.js';

/** The 20 collections of the interface document, in its order, and the deployment's model names (its 404s name them). */
export const RESOURCES: readonly (readonly [string, string])[] = [
  ['signature', 'Signature'],
  ['teleworksignature', 'TeleworkSignature'],
  ['viewedsecuritymessage', 'ViewedSecurityMessage'],
  ['responsibilitytags', 'Tag'],
  ['expense-statement', 'ExpenseStatement'],
  ['expense-month-lock', 'ExpenseMonthLock'],
  ['employee', 'Employee'],
  ['deskreservation', 'DeskReservation'],
  ['mealstop', 'Stop'],
  ['expense', 'Expense'],
  ['desk', 'Desk'],
  ['teleworkapplication', 'TeleworkApplication'],
  ['transitionchange', 'TransitionChange'],
  ['timeoffrequest', 'TimeOffRequest'],
  ['expense-month', 'ExpenseMonth'],
  ['reviewnote', 'ReviewNote'],
  ['stepchoice', 'StepChoice'],
  ['review', 'PerformanceReview'],
  ['jobtitle', 'JobTitle'],
  ['workflow', 'Workflow'],
];
export const MODEL_OF: ReadonlyMap<string, string> = new Map(RESOURCES);

export type ServerKey = 'p100' | 'p7' | 'p7-trust' | 'p7-hosts' | 'cors' | 'prod-hosts';
export interface ServerConfig {
  pageSize: number;
  trustProxy: boolean;
  allowedHosts?: string[];
  /** The deployment's FRONTEND_DOMAIN (stub --frontend-origin, reference REF_FRONTEND_ORIGIN); CORS headers are compared where set. */
  frontendOrigin?: string;
}
/** The production frontend's origin (the deployment's FRONTEND_DOMAIN when ENVIRONMENT is not STAGING). */
export const FRONTEND_ORIGIN = 'https://app.team.lcog.org';
/** Each configuration runs once as the stub and once as the reference. */
export const SERVERS: Record<ServerKey, ServerConfig> = {
  p100: { pageSize: 100, trustProxy: false },
  p7: { pageSize: 7, trustProxy: false },
  'p7-trust': { pageSize: 7, trustProxy: true },
  'p7-hosts': {
    pageSize: 7,
    trustProxy: false,
    allowedHosts: ['api.example.org', '.example.com', 'localhost', '127.0.0.1'],
  },
  cors: { pageSize: 100, trustProxy: false, frontendOrigin: FRONTEND_ORIGIN },
  // production's ALLOWED_HOSTS (its EC2 / Elastic Beanstalk entries are unset here), and loopback for the harness
  'prod-hosts': {
    pageSize: 100,
    trustProxy: false,
    allowedHosts: ['app.team.lcog.org', 'api.team.lcog.org', '127.0.0.1'],
    frontendOrigin: FRONTEND_ORIGIN,
  },
};

/** Valid token keys (stub --tokens, reference REF_TOKENS): one user each. */
export const TOKENS = ['9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b', '2f1e4a6c0b8d4e3f9a7c5b1d0e2f4a6c8b0d2e4f'];
/** A valid session key (reference REF_SESSIONS), and a CSRF secret for its writes. */
export const SESSION = 'refsessionkey0123456789abcdefghij';
export const CSRF = 'Qm8a2vLx0T1yZc3dE4fG5hJ6kL7mN8pR';

export interface CorpusRequest extends WireRequest {
  /** Unique, readable: `p7 GET /api/v1/desk?format=api&page=2 [host=api.example.org]`. */
  id: string;
  server: ServerKey;
  /** Which dimension of the corpus this request covers (for the summary). */
  group: string;
  /** Requests of one sequence are sent in corpus order, after both servers are reset. */
  sequence?: string;
}

/** Methods that may change state (sent one at a time, after the reads). */
export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The desk pks of fixtures/desk.json (pk 13, 27, 40 and 49+ are absent). */
export function deskPks(desks: readonly { pk: number }[]): number[] {
  return desks.map((d) => d.pk);
}

export const BASE_HOST = 'api.example.org';

const FORMATS: Record<string, string | null> = {
  api: 'format=api',
  json: 'format=json',
  none: null,
  empty: 'format=',
  xml: 'format=xml',
};
const FORMAT_KEYS = Object.keys(FORMATS);

/** `page` values: raw query fragments (null: no page parameter). */
const PAGES: Record<string, string | null> = {
  none: null,
  '1': 'page=1',
  '2': 'page=2',
  '3': 'page=3',
  '7': 'page=7',
  '8': 'page=8',
  last: 'page=last',
  LAST: 'page=LAST',
  '0': 'page=0',
  '-1': 'page=-1',
  abc: 'page=abc',
  '1.5': 'page=1.5',
  '2.0': 'page=2.0',
  huge: 'page=99999999999999999999',
  empty: 'page=',
  bare: 'page',
  repeated: 'page=1&page=2',
  'repeated-empty-last': 'page=2&page=',
  'repeated-last': 'page=last&page=1',
  fullwidth: 'page=%EF%BC%92',
  'arabic-indic': 'page=%D9%A2',
  plus: 'page=%2B2',
  'leading-space': 'page=%202',
  underscore: 'page=1_0',
  hex: 'page=0x2',
};
const PAGE_KEYS = Object.keys(PAGES);

/** Extra query parameters with odd characters (raw query fragments). */
const EXTRAS: string[] = [
  'q=a+b',
  'q=a%20b',
  'q=~tilde',
  'q=*star',
  'q=a,b',
  'q=a%2Fb',
  'q=%C3%BC',
  'q=%E2%82%AC',
  'q=%F0%9F%98%80',
  'a=1&a=2',
  'z=1&a=2',
  'q=',
  'q',
  'q=%25',
  'q=%ZZ',
  'q=%FF',
  'q=a%26b',
  'q=a%3Db',
  'q=%2B',
  'q=a;b',
  'q=a%0Ab',
  '%C3%BC=1',
  'Page=3',
  'FORMAT=json',
  'ordering=-pk',
  'search=desk',
  'page_size=2',
  'limit=2&offset=1',
  'format=json&format=api',
  'format=api&format=json',
  'q=%22%3C%3E%5C%5E%60%7B%7C%7D',
  "q=!$'()",
  'q=@:/?',
];

/** Host header values: valid, invalid, odd (undefined: no Host header at all). */
const HOSTS: (string | undefined)[] = [
  'api.example.org',
  'api.example.org:8080',
  'localhost:4010',
  '127.0.0.1',
  '127.0.0.1:8000',
  '[::1]',
  '[::1]:8000',
  'api.example.org.',
  'API.EXAMPLE.ORG',
  'Api.Example.Org:8443',
  'xn--bcher-kva.example',
  '-leading.example',
  'a..b',
  'host:99999',
  'host:123456789',
  'host:0',
  'bad_host',
  '[::1',
  'api.example.org:',
  'host:80:90',
  'user@host',
  'a b',
  '',
  undefined,
];

const ACCEPTS: (string | undefined)[] = [
  undefined,
  '*/*',
  'application/json',
  'application/json; indent=4',
  'application/json; indent=2',
  'text/html',
  'application/xml',
  'application/*',
  'text/html, application/json;q=0.9',
  'application/json; q=0',
  'application/vnd.api+json',
  'application/json; charset=utf-8',
  '',
];

const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'TRACE'];

/** A small deterministic PRNG (mulberry32) for the pairwise mixes. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function joinQuery(...parts: (string | null | undefined)[]): string | null {
  const kept = parts.filter((p): p is string => p !== null && p !== undefined);
  return kept.length ? kept.join('&') : null;
}

interface Build {
  server?: ServerKey;
  method?: string;
  path: string;
  query?: string | null;
  host?: string | undefined | null; // null: the base host; undefined: no Host header
  accept?: string | undefined | null; // null: the base Accept (*/*); undefined: none
  headers?: [string, string][];
  body?: string;
  raw?: boolean;
  group: string;
  sequence?: string;
}

export function buildCorpus(desks: readonly { pk: number }[]): CorpusRequest[] {
  const out: CorpusRequest[] = [];
  const seen = new Set<string>();
  let step = 0;
  const add = (b: Build) => {
    const server = b.server ?? 'p7';
    const method = b.method ?? 'GET';
    const path = b.query === null || b.query === undefined ? b.path : `${b.path}?${b.query}`;
    const host = b.host === null || !('host' in b) ? BASE_HOST : b.host;
    const accept = b.accept === null || !('accept' in b) ? '*/*' : b.accept;
    const headers: [string, string][] = [];
    if (host !== undefined) headers.push(['Host', host]);
    if (accept !== undefined) headers.push(['Accept', accept]);
    headers.push(...(b.headers ?? []));
    const extra = headers
      .filter(([k, v]) => !(k === 'Host' && v === BASE_HOST) && !(k === 'Accept' && v === '*/*'))
      .map(([k, v]) => `${k.toLowerCase()}=${JSON.stringify(v)}`);
    if (host === undefined) extra.unshift('no-host');
    if (accept === undefined) extra.unshift('no-accept');
    if (b.body !== undefined) extra.push(`body=${JSON.stringify(b.body.slice(0, 40))}`);
    if (b.raw) extra.push('raw');
    const id = `${b.sequence ? `{${b.sequence}#${++step}} ` : ''}${server} ${method} ${path}${extra.length ? ` [${extra.join(' ')}]` : ''}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push({
      id,
      server,
      group: b.group,
      method,
      path,
      headers,
      ...(b.body !== undefined ? { body: b.body } : {}),
      ...(b.raw ? { raw: true } : {}),
      ...(b.sequence ? { sequence: b.sequence } : {}),
    });
  };
  const list = (r: string) => `/api/v1/${r}`;
  const names = RESOURCES.map(([r]) => r);
  const pks = deskPks(desks);

  // A. Collections × formats, collections × pages (format=api), and desk × formats × pages, on both page sizes.
  for (const server of ['p7', 'p100'] as const) {
    for (const r of names) {
      for (const f of FORMAT_KEYS) add({ server, path: list(r), query: FORMATS[f], group: 'collections × formats' });
      // page size 100: every page value on desk, a few on the (empty) others
      const pages = server === 'p7' || r === 'desk' ? PAGE_KEYS : ['none', '1', '2', 'last', 'empty', 'abc'];
      for (const p of pages)
        add({ server, path: list(r), query: joinQuery(FORMATS.api, PAGES[p]), group: 'collections × pages' });
    }
    for (const f of FORMAT_KEYS)
      for (const p of PAGE_KEYS)
        add({ server, path: list('desk'), query: joinQuery(FORMATS[f], PAGES[p]), group: 'desk × formats × pages' });
    // page before format
    for (const p of ['2', '3', 'last', 'empty', 'repeated'])
      add({ server, path: list('desk'), query: joinQuery(PAGES[p], FORMATS.api), group: 'desk × formats × pages' });
  }

  // C. Extra query parameters with odd characters: on desk (links built) and on an empty collection.
  for (const e of EXTRAS) {
    for (const p of ['none', '2', 'last', 'empty']) {
      add({ path: list('desk'), query: joinQuery(FORMATS.api, PAGES[p], e), group: 'extra parameters' });
      add({ path: list('desk'), query: joinQuery(e, PAGES[p]), group: 'extra parameters' });
    }
    add({ path: list('employee'), query: joinQuery(FORMATS.api, e), group: 'extra parameters' });
    add({ path: `${list('desk')}/3`, query: joinQuery(FORMATS.api, e), group: 'extra parameters' });
    add({ server: 'p100', path: list('desk'), query: joinQuery(e, FORMATS.json), group: 'extra parameters' });
  }
  // raw UTF-8 in the query (node refuses it on the request line: sent through a socket)
  for (const q of ['q=ü', 'q=€uro', 'ü=1']) {
    add({ path: list('desk'), query: joinQuery(FORMATS.api, 'page=2', q), raw: true, group: 'extra parameters' });
    add({ path: list('employee'), query: joinQuery(q), raw: true, group: 'extra parameters' });
  }

  // D. Host values, on the stock configuration (ALLOWED_HOSTS = *) and on one with a list.
  const hostPaths: [string, string | null][] = [
    [list('desk'), 'format=api&page=2'],
    [list('desk'), null],
    [`${list('desk')}/3`, 'format=api'],
    [`${list('desk')}/999`, 'format=api'],
    [list('employee'), 'format=json'],
    ['/api/v1/', null],
    ['/api/v1', null],
    ['/api/v1/nosuch', null],
    ['/api/', null],
    ['/api', null],
  ];
  for (const h of HOSTS) for (const [path, query] of hostPaths) add({ path, query, host: h, group: 'Host' });
  for (const h of [
    ...HOSTS,
    'x.example.com',
    'example.com',
    'evil.example.org',
    'example.com.evil.org',
    'localhost',
    'LOCALHOST:4010',
    'sub.x.example.com.',
  ]) {
    for (const [path, query] of hostPaths.slice(0, 4))
      add({ server: 'p7-hosts', path, query, host: h, group: 'Host (ALLOWED_HOSTS list)' });
  }
  // a Host of raw UTF-8 bytes
  add({ path: list('desk'), query: 'format=api', host: 'bücher.example', raw: true, group: 'Host' });
  add({
    server: 'p7-hosts',
    path: list('desk'),
    query: 'format=api',
    host: 'bücher.example',
    raw: true,
    group: 'Host (ALLOWED_HOSTS list)',
  });

  // E. X-Forwarded-Host / X-Forwarded-Proto, trusted (stub --trust-proxy, reference REF_TRUST_PROXY=1) and not.
  const XFH: (string | undefined)[] = [
    undefined,
    'proxy.example.net',
    'proxy.example.net:8443',
    'PROXY.example.net',
    'bad_host',
    'a.example, b.example',
    '',
  ];
  const XFP: (string | undefined)[] = [undefined, 'https', 'http', 'HTTPS', 'https, http', 'http, https', 'ftp', ''];
  const proxyPaths: [string, string | null][] = [
    [list('desk'), 'format=api&page=2'],
    [`${list('desk')}/3`, 'format=api'],
    ['/api/', 'format=json'],
    ['/api', null],
  ];
  for (const server of ['p7-trust', 'p7'] as const) {
    for (const xfh of XFH) {
      for (const xfp of XFP) {
        const headers: [string, string][] = [];
        if (xfh !== undefined) headers.push(['X-Forwarded-Host', xfh]);
        if (xfp !== undefined) headers.push(['X-Forwarded-Proto', xfp]);
        // untrusted, the headers must change nothing: two paths suffice
        for (const [path, query] of server === 'p7' ? proxyPaths.slice(0, 2) : proxyPaths)
          add({ server, path, query, headers, group: 'X-Forwarded-*' });
      }
    }
    for (const h of ['bad_host', '', undefined])
      add({
        server,
        path: list('desk'),
        query: 'format=api&page=2',
        host: h,
        headers: [['X-Forwarded-Host', 'proxy.example.net']],
        group: 'X-Forwarded-*',
      });
    add({
      server,
      path: list('desk'),
      query: 'format=api&page=2',
      headers: [
        ['X-Forwarded-Host', 'one.example'],
        ['X-Forwarded-Host', 'two.example'],
      ],
      group: 'X-Forwarded-*',
    });
    add({
      server,
      path: list('desk'),
      query: 'format=api&page=2',
      headers: [
        ['X-Forwarded-Proto', 'https'],
        ['X-Forwarded-Proto', 'http'],
      ],
      group: 'X-Forwarded-*',
    });
    add({
      server,
      path: list('desk'),
      query: 'format=api&page=2',
      headers: [
        ['X-Forwarded-Port', '8443'],
        ['X-Forwarded-Proto', 'https'],
      ],
      group: 'X-Forwarded-*',
    });
    add({
      server,
      path: list('desk'),
      query: 'format=api&page=2',
      headers: [['Forwarded', 'host=fwd.example;proto=https']],
      group: 'X-Forwarded-*',
    });
  }

  // F. Every desk pk, and odd pks, × formats; detail paths of the other resources.
  const ODD_PKS = [
    '0',
    '-1',
    'abc',
    '1.5',
    '%D9%A3',
    '%EF%BC%93',
    '99999999999999999999',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '2147483648',
    '%2F',
    '',
    '13',
    '27',
    '40',
    '49',
    '1000',
    '%2B3',
    '03',
    '1_0',
    '%203',
    '3%20',
    '3%09',
    'DESK',
    '%C3%BC',
    '3,4',
    '3;x',
    '~',
    '*',
    '3a',
    '-0',
    '%2D1',
  ];
  for (const pk of [...pks.map(String), ...ODD_PKS]) {
    for (const f of FORMAT_KEYS) add({ path: `${list('desk')}/${pk}`, query: FORMATS[f], group: 'desk pks' });
  }
  for (const pk of ['1', '3', '99999999999999999999', 'abc'])
    add({ server: 'p100', path: `${list('desk')}/${pk}`, query: FORMATS.api, group: 'desk pks' });
  for (const r of names.filter((n) => n !== 'desk')) {
    add({ path: `${list(r)}/1`, query: FORMATS.api, group: 'other detail paths' });
    add({ path: `${list(r)}/abc`, query: null, group: 'other detail paths' });
    // A pk as int() reads it (an Arabic-Indic 1): each viewset's own retrieve, a handler's too.
    add({ path: `${list(r)}/%D9%A1`, query: null, group: 'other detail paths' });
  }

  // G. Methods × paths × formats; write methods with bodies (JSON and form).
  const methodPaths: [string, string | null][] = [
    [list('desk'), null],
    [list('desk'), 'page=2'],
    [`${list('desk')}/3`, null],
    [`${list('desk')}/999`, null],
    [`${list('desk')}/abc`, null],
    [list('employee'), null],
    [`${list('employee')}/1`, null],
    ['/api/v1/', null],
    ['/api/v1', null],
    ['/api/', null],
    ['/api', null],
    ['/api/v1/nosuch', null],
    [`${list('desk')}/`, null],
    ['/api/v1/desk.json', null],
  ];
  for (const method of METHODS) {
    for (const [path, query] of methodPaths) {
      for (const f of ['none', 'api', 'xml'])
        add({ method, path, query: joinQuery(FORMATS[f], query), group: 'methods' });
    }
  }
  const bodies: [string, string][] = [
    [
      'application/json',
      '{"building":"B","floor":2,"number":"201","active":true,"lead":false,"ergonomic":false,"held_today":false}',
    ],
    ['application/json', '{not json'],
    ['application/x-www-form-urlencoded', 'building=B&floor=2&number=201'],
    [
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="building"\r\n\r\nB\r\n--XyZ--\r\n',
    ],
    ['text/plain', 'hello'],
  ];
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    for (const [ct, body] of bodies) {
      for (const [path, query] of [
        [list('desk'), 'format=api'],
        [`${list('desk')}/3`, 'format=api'],
        [list('employee'), null],
        ['/api/v1/nosuch', null],
      ] as const) {
        add({ method, path, query, headers: [['Content-Type', ct]], body, group: 'write methods with bodies' });
      }
    }
  }

  // H. Accept headers × paths × formats.
  const acceptPaths: [string, string | null, string?][] = [
    [list('desk'), 'page=2'],
    [`${list('desk')}/3`, null],
    [`${list('desk')}/999`, null],
    [list('employee'), null],
    [list('desk'), 'page=abc'],
    ['/api/v1/nosuch', null],
    ['/api/v1/', null],
    ['/api/', null],
    [list('desk'), null, 'POST'],
    [list('desk'), null, 'OPTIONS'],
    [list('desk'), null, 'HEAD'],
  ];
  for (const accept of ACCEPTS) {
    for (const [path, query, method] of acceptPaths) {
      for (const f of ['none', 'api', 'xml'])
        add({ method, path, query: joinQuery(FORMATS[f], query), accept, group: 'Accept' });
    }
  }

  // I. Trailing slashes, the API root, format suffixes, unknown paths.
  const ODD_PATHS = [
    '/api/v1/desk/',
    '/api/v1/desk/3/',
    '/api/v1',
    '/api/v1/',
    '/api/v1/.json',
    '/api/v1/.api',
    '/api/v1/.xml',
    '/api/v1/desk.json',
    '/api/v1/desk.api',
    '/api/v1/desk.xml',
    '/api/v1/desk.JSON',
    '/api/v1/desk.json/',
    '/api/v1/desk/3.json',
    '/api/v1/desk/3.api',
    '/api/v1/desk/3.xml',
    '/api/v1/desk/3.json/',
    '/api/v1/desk/999.json',
    '/api/v1/employee/',
    '/api/v1/employee.json',
    '/api/v1/employee/1.json',
    '/api/v1/nosuch',
    '/api/v1/nosuch/',
    '/api/v2/desk',
    '/api',
    '/api/',
    '/API/V1/DESK',
    '/api/v1/Desk',
    '/api/v1//desk',
    '/api/v1/desk//3',
    '/api/v1/desk/3/extra',
    '/api/v1/desk%2F3',
    '/api/v1/de%73k',
    '/api/v1/desk%20',
    '/api/v1/desk;x',
    '/api/v1/desk/.json',
    '/api/v1/./desk',
    '/api/v1/../v1/desk',
    '/api/v1/%64esk/3',
    '/favicon.ico',
    '/robots.txt',
    '/',
    '/api/.json',
    '/api/.api',
    '/api/.xml',
    '/api.json',
    '/API/',
    '/api//',
    '/api/v1/signature/1/',
    '/api/v1/mealstop.json',
    '/api/v1/jobtitle/1.json',
  ];
  for (const path of ODD_PATHS) {
    for (const f of FORMAT_KEYS) {
      add({ path, query: FORMATS[f], group: 'paths' });
      add({ method: 'HEAD', path, query: FORMATS[f], group: 'paths' });
    }
    add({ path, query: 'format=api&page=2', group: 'paths' });
  }
  add({ path: list('desk'), query: '', group: 'paths' });
  add({ path: '/api/v1/', query: 'page=2', group: 'paths' });
  add({ path: '/api/', query: 'page=2', group: 'paths' });
  add({ path: '/api/v1/desk.json', query: 'format=api&page=2', group: 'paths' });
  add({ path: '/api/v1/desk.api', query: 'format=json&page=last', group: 'paths' });
  add({ path: '/api/v1/desk.json', query: 'format=xml', group: 'paths' });

  // Cookies, Origin, odd request headers.
  const headerCases: [string, string][][] = [
    [['Cookie', 'sessionid=bogus']],
    [['Cookie', 'sessionid=bogus; csrftoken=abc']],
    [['Cookie', 'a=b']],
    [['Origin', 'http://localhost:5173']],
    [['Origin', 'null']],
    [['X-Requested-With', 'XMLHttpRequest']],
    [['Authorization', 'Token abc']],
    [['Authorization', 'Basic dXNlcjpwYXNz']],
    [['User-Agent', 'Mozilla/5.0']],
    [['Accept-Language', 'de']],
    [['If-None-Match', '"abc"']],
    [['X-HTTP-Method-Override', 'DELETE']],
  ];
  for (const headers of headerCases) {
    for (const [method, path, query] of [
      ['GET', list('desk'), 'format=api&page=2'],
      ['GET', `${list('desk')}/3`, 'format=api'],
      ['POST', list('desk'), 'format=api'],
      ['GET', '/api/v1/nosuch', null],
    ] as const) {
      add({ method, path, query, headers, group: 'request headers' });
    }
  }

  // J. Pairwise mixes (seeded): a few dimensions at once.
  const rnd = prng(20240611);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const validHosts = HOSTS.slice(0, 12);
  const mixesFrom = out.length;
  for (let i = 0; out.length < mixesFrom + 400 && i < 2000; i++) {
    const server = pick(['p7', 'p7', 'p7', 'p100', 'p7-trust'] as const);
    const resource = rnd() < 0.5 ? 'desk' : pick(names);
    const detail =
      resource === 'desk' && rnd() < 0.3 ? `/${pick([...pks.slice(0, 10).map(String), ...ODD_PKS.slice(0, 12)])}` : '';
    const method = rnd() < 0.7 ? 'GET' : pick(METHODS);
    const query = joinQuery(
      FORMATS[pick(FORMAT_KEYS)],
      detail ? null : PAGES[pick(PAGE_KEYS)],
      rnd() < 0.4 ? pick(EXTRAS) : null,
    );
    const host = rnd() < 0.7 ? BASE_HOST : pick(rnd() < 0.7 ? validHosts : HOSTS);
    const accept = rnd() < 0.6 ? '*/*' : pick(ACCEPTS);
    const headers: [string, string][] =
      server === 'p7-trust' && rnd() < 0.6
        ? [
            ['X-Forwarded-Host', pick(['proxy.example.net', 'proxy.example.net:8443'])],
            ['X-Forwarded-Proto', pick(['https', 'http'])],
          ]
        : [];
    add({ server, method, path: `${list(resource)}${detail}`, query, host, accept, headers, group: 'pairwise mixes' });
  }

  // K. Authentication: tokens valid and not, other schemes, sessions (reads; writes in M and N).
  const [token] = TOKENS as [string];
  const AUTHS: [string, string][][] = [
    [['Authorization', `Token ${token}`]],
    [['Authorization', `token ${token}`]],
    [['Authorization', `Token  ${token}`]],
    [['Authorization', `Token ${token} `]],
    [['Authorization', 'Token abc']],
    [['Authorization', 'Token']],
    [['Authorization', 'Token ']],
    [['Authorization', 'Token a b']],
    [['Authorization', `Token ${token.toUpperCase()}`]],
    [['Authorization', `Token ${token}x`]],
    [['Authorization', 'Token \u00e9t\u00e9']],
    [['Authorization', 'Basic dXNlcjpwYXNz']],
    [['Authorization', 'Basic']],
    [['Authorization', 'Bearer abc']],
    [['Authorization', `Bearer ${token}`]],
    [['Authorization', 'Tokens abc']],
    [['Authorization', '']],
    [['Cookie', `sessionid=${SESSION}`]],
    [['Cookie', 'sessionid=bogus0123456789']],
    [
      ['Cookie', `sessionid=${SESSION}`],
      ['Authorization', 'Token abc'],
    ],
    [
      ['Cookie', `sessionid=${SESSION}`],
      ['Authorization', `Token ${token}`],
    ],
  ];
  const authPaths: [string, string, string | null][] = [
    ['GET', list('desk'), 'format=api'],
    ['GET', list('desk'), 'page=2'],
    ['GET', `${list('desk')}/3`, null],
    ['GET', `${list('desk')}/5`, null],
    ['HEAD', list('desk'), null],
    ['OPTIONS', list('desk'), null],
    ['OPTIONS', `${list('desk')}/3`, null],
    ['GET', list('employee'), null],
    ['GET', `${list('employee')}/1`, null],
    ['GET', `${list('review')}/1`, null],
    ['GET', list('mealstop'), 'page_size=2'],
    ['GET', '/api/', null],
    ['GET', '/api/v1/nosuch', null],
    ['GET', list('desk'), 'format=xml'],
    ['PROPFIND', list('desk'), null],
  ];
  for (const headers of AUTHS)
    for (const [method, path, query] of authPaths)
      add({
        method,
        path,
        query,
        headers,
        group: 'authentication',
        ...(headers[0]?.[1].includes('\u00e9') ? { raw: true } : {}),
      });
  for (const [method, path, query] of authPaths.slice(0, 6))
    add({ method, path, query, headers: [['Authorization', `Token ${TOKENS[1]}`]], group: 'authentication' });

  // L. Every collection: its list and item routes, each method, anonymous and with a token (reads).
  for (const r of names) {
    for (const headers of [[], [['Authorization', `Token ${token}`]]] as [string, string][][]) {
      for (const method of ['GET', 'HEAD', 'OPTIONS']) {
        add({ method, path: list(r), query: null, headers, group: 'item routes' });
        for (const pk of ['1', '3', '5', '999', 'abc', '99999999999999999999'])
          add({ method, path: `${list(r)}/${pk}`, query: null, headers, group: 'item routes' });
      }
      add({ path: `${list(r)}/1`, query: 'format=api', headers, group: 'item routes' });
      add({ path: `${list(r)}/1.json`, query: null, headers, group: 'item routes' });
      add({ method: 'TRACE', path: `${list(r)}/1`, query: null, headers, group: 'item routes' });
    }
  }

  // M. Writes on every collection but desk, one at a time (reset after any that succeeds): each
  // method on its list and its item, anonymous and with a token, with a few bodies.
  const otherBodies: [string, string][] = [
    ['application/json', '{}'],
    ['application/json', '{"name":"x","pk":7}'],
    ['application/json', '[]'],
    ['application/json', '{not json'],
    ['application/x-www-form-urlencoded', 'name=x'],
  ];
  for (const r of names.filter((n) => n !== 'desk')) {
    for (const headers of [[], [['Authorization', `Token ${token}`]]] as [string, string][][]) {
      for (const [ct, body] of otherBodies.slice(0, r === 'signature' || r === 'mealstop' ? 5 : 1)) {
        add({
          method: 'POST',
          path: list(r),
          query: null,
          headers: [...headers, ['Content-Type', ct]],
          body,
          group: 'writes (other collections)',
        });
        for (const method of ['PUT', 'PATCH'])
          add({
            method,
            path: `${list(r)}/1`,
            query: null,
            headers: [...headers, ['Content-Type', ct]],
            body,
            group: 'writes (other collections)',
          });
      }
      add({ method: 'POST', path: list(r), query: null, headers, group: 'writes (other collections)' });
      add({ method: 'DELETE', path: `${list(r)}/1`, query: null, headers, group: 'writes (other collections)' });
      add({
        method: 'POST',
        path: `${list(r)}/1`,
        query: null,
        headers: [...headers, ['Content-Type', 'application/json']],
        body: '{}',
        group: 'writes (other collections)',
      });
      add({ method: 'DELETE', path: list(r), query: null, headers, group: 'writes (other collections)' });
    }
    // a sequence: created anonymously and with a token, then read, changed and deleted by both
    const seq = `${r} lifecycle`;
    const json: [string, string] = ['Content-Type', 'application/json'];
    const tok: [string, string] = ['Authorization', `Token ${token}`];
    const steps: [string, string, [string, string][], string?][] = [
      ['POST', list(r), [json], '{}'],
      ['POST', list(r), [json, tok], '{"anything":1}'],
      ['GET', list(r), []],
      ['GET', list(r), [tok]],
      ['GET', `${list(r)}/1`, []],
      ['GET', `${list(r)}/1`, [tok]],
      ['OPTIONS', `${list(r)}/1`, []],
      ['OPTIONS', `${list(r)}/1`, [tok]],
      ['PUT', `${list(r)}/1`, [json], '{}'],
      ['PUT', `${list(r)}/1`, [json, tok], '{}'],
      ['PATCH', `${list(r)}/2`, [json, tok], '{}'],
      ['DELETE', `${list(r)}/1`, []],
      ['DELETE', `${list(r)}/1`, [tok]],
      ['GET', `${list(r)}/1`, [tok]],
      ['GET', list(r), [tok]],
    ];
    for (const [method, path, headers, body] of steps)
      add({
        method,
        path,
        query: null,
        headers,
        ...(body !== undefined ? { body } : {}),
        group: 'write sequences',
        sequence: seq,
      });
  }
  // the two pagination classes with items in them: 5 stops / job titles, pages of 2 and the default
  for (const r of ['mealstop', 'jobtitle', 'signature']) {
    const seq = `${r} pages`;
    const tok: [string, string] = ['Authorization', `Token ${token}`];
    for (let i = 0; i < 5; i++)
      add({
        method: 'POST',
        path: list(r),
        query: null,
        headers: [tok, ['Content-Type', 'application/json']],
        body: '{}',
        group: 'pagination classes',
        sequence: seq,
      });
    // A stop's detail as get_object reads its pk, Python's int(): an Arabic-Indic 1 (U+0661), a
    // leading space or zero and a sign name stop 1 (the object permission's 403); `1_0` is stop 10
    // (none); `x` is no int ("Not found.").
    if (r === 'mealstop')
      for (const pk of ['1', '%D9%A1', '%201', '01', '%2B1', '1_0', 'x'])
        add({ path: `${list(r)}/${pk}`, query: null, headers: [tok], group: 'pagination classes', sequence: seq });
    for (const q of [
      'page_size=2',
      'page_size=2&page=2',
      'page_size=2&page=3',
      'page_size=2&page=4',
      'page_size=2&page=last',
      'page=2&page_size=2&format=api',
      'page_size=1',
      'page_size=0',
      'page_size=-1',
      'page_size=abc',
      'page_size=',
      'page_size=5000',
      'page_size=1000',
      'page_size=2&page_size=3',
      'page=2',
      null,
    ]) {
      add({ path: list(r), query: q, headers: [tok], group: 'pagination classes', sequence: seq });
    }
    add({ path: list(r), query: 'page_size=2', headers: [], group: 'pagination classes', sequence: seq });
  }
  for (const q of [
    'page_size=2',
    'page_size=1000',
    'page_size=0',
    'page_size=abc',
    'page_size=2&page=2',
    'page_size=5000',
    'page_size=-3',
    'page_size=',
  ]) {
    for (const r of ['mealstop', 'jobtitle', 'desk', 'employee'])
      add({ path: list(r), query: q, group: 'pagination classes' });
    add({ server: 'p100', path: list('desk'), query: q, group: 'pagination classes' });
  }

  // N. Writes on the desk: creation with valid and invalid bodies, defaults, changes, deletion.
  const deskBody = (o: Record<string, unknown>) => JSON.stringify(o);
  const full = { building: 'P', floor: 2, number: '260', active: true, lead: false, ergonomic: true };
  const DESK_POSTS: [string, string][] = [
    ['full', deskBody(full)],
    ['number only (defaults)', deskBody({ number: '261' })],
    ['building S', deskBody({ ...full, building: 'S', number: '262' })],
    ['building X', deskBody({ ...full, building: 'X' })],
    ['building A', deskBody({ ...full, building: 'A' })],
    ['building lower s', deskBody({ ...full, building: 's' })],
    ['building empty', deskBody({ ...full, building: '' })],
    ['building null', deskBody({ ...full, building: null })],
    ['building Schaefers', deskBody({ ...full, building: 'Schaefers' })],
    ['duplicate number', deskBody({ ...full, number: '101' })],
    ['duplicate inactive number', deskBody({ ...full, number: '350' })],
    ['number 10 chars', deskBody({ ...full, number: '1234567890' })],
    ['number 11 chars', deskBody({ ...full, number: '12345678901' })],
    ['number empty', deskBody({ ...full, number: '' })],
    ['number null', deskBody({ ...full, number: null })],
    ['number integer', deskBody({ ...full, number: 263 })],
    ['floor 0', deskBody({ ...full, floor: 0, number: '264' })],
    ['floor -1', deskBody({ ...full, floor: -1 })],
    ['floor 32767', deskBody({ ...full, floor: 32767, number: '265' })],
    ['floor 32768', deskBody({ ...full, floor: 32768 })],
    ['floor huge', deskBody({ ...full, floor: 99999999999 })],
    ['floor string', deskBody({ ...full, floor: '3', number: '266' })],
    ['floor abc', deskBody({ ...full, floor: 'abc' })],
    ['floor 1.5', deskBody({ ...full, floor: 1.5 })],
    ['floor null', deskBody({ ...full, floor: null })],
    ['missing number', deskBody({ building: 'S', floor: 1 })],
    ['empty object', '{}'],
    ['booleans as strings', deskBody({ ...full, number: '267', active: 'yes', lead: 'false', ergonomic: '1' })],
    ['boolean junk', deskBody({ ...full, lead: 'maybe' })],
    ['read-only fields', deskBody({ ...full, number: '268', pk: 999, url: 'http://x/', held_today: true })],
    ['unknown field', deskBody({ ...full, number: '269', colour: 'red' })],
    ['inactive', deskBody({ ...full, number: '270', active: false })],
    ['array', '[]'],
    ['not json', '{"number":'],
  ];
  const json: [string, string] = ['Content-Type', 'application/json'];
  for (const [what, body] of DESK_POSTS) {
    add({
      method: 'POST',
      path: list('desk'),
      query: null,
      headers: [json],
      body,
      group: `desk writes: ${what.split(' ')[0]}`,
    });
    if (['full', 'building X', 'floor -1', 'duplicate number'].includes(what)) {
      add({ method: 'POST', path: list('desk'), query: 'format=api', headers: [json], body, group: 'desk writes' });
      add({
        server: 'p100',
        method: 'POST',
        path: list('desk'),
        query: null,
        headers: [json, ['Authorization', `Token ${token}`]],
        body,
        group: 'desk writes',
      });
    }
  }
  for (const [ct, body] of [
    ['application/x-www-form-urlencoded', 'number=271&building=P&floor=3'],
    ['application/x-www-form-urlencoded', 'number=272&lead=on'],
    [
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="number"\r\n\r\n273\r\n--XyZ--\r\n',
    ],
    ['text/plain', '{"number":"274"}'],
    ['application/json; charset=utf-8', deskBody({ number: '275' })],
  ] as [string, string][]) {
    add({
      method: 'POST',
      path: list('desk'),
      query: null,
      headers: [['Content-Type', ct]],
      body,
      group: 'desk writes',
    });
  }
  add({
    method: 'POST',
    path: list('desk'),
    query: null,
    headers: [],
    body: deskBody({ number: '276' }),
    group: 'desk writes',
  });
  for (const [what, pk, method, body] of [
    ['put full', '3', 'PUT', deskBody(full)],
    ['put partial', '3', 'PUT', deskBody({ floor: 2 })],
    ['put same number', '3', 'PUT', deskBody({ number: '103' })],
    ['put other number', '3', 'PUT', deskBody({ number: '101' })],
    ['patch floor', '3', 'PATCH', deskBody({ floor: 3 })],
    ['patch building X', '3', 'PATCH', deskBody({ building: 'X' })],
    ['patch number dup', '3', 'PATCH', deskBody({ number: '101' })],
    ['patch empty', '3', 'PATCH', '{}'],
    ['patch held_today', '3', 'PATCH', deskBody({ held_today: true })],
    ['patch inactive desk', '5', 'PATCH', deskBody({ floor: 2 })],
    ['put inactive desk', '5', 'PUT', deskBody(full)],
    ['patch absent desk', '999', 'PATCH', deskBody({ floor: 2 })],
    ['delete', '3', 'DELETE', undefined],
    ['delete inactive', '5', 'DELETE', undefined],
    ['delete absent', '999', 'DELETE', undefined],
    ['delete abc', 'abc', 'DELETE', undefined],
    ['delete huge', '99999999999999999999', 'DELETE', undefined],
    ['post on item', '3', 'POST', deskBody(full)],
  ] as [string, string, string, string | undefined][]) {
    add({
      method,
      path: `${list('desk')}/${pk}`,
      query: null,
      headers: body === undefined ? [] : [json],
      ...(body !== undefined ? { body } : {}),
      group: `desk writes: ${what.split(' ')[0]}`,
    });
  }
  // sequences: a desk's life; an item made inactive leaves the list; a deleted one is gone
  const deskSeq = (
    seq: string,
    steps: [string, string, string | null, string?][],
    headers: [string, string][] = [],
  ) => {
    for (const [method, path, query, body] of steps)
      add({
        method,
        path,
        query,
        headers: body === undefined ? headers : [...headers, json],
        ...(body !== undefined ? { body } : {}),
        group: 'write sequences',
        sequence: seq,
      });
  };
  deskSeq('desk lifecycle', [
    ['POST', list('desk'), null, deskBody(full)],
    ['GET', list('desk'), null],
    ['GET', list('desk'), 'page=7'],
    ['GET', `${list('desk')}/52`, null],
    ['PUT', `${list('desk')}/52`, null, deskBody({ ...full, building: 'S', number: '260B' })],
    ['PATCH', `${list('desk')}/52`, null, deskBody({ lead: true })],
    ['GET', `${list('desk')}/52`, 'format=api'],
    ['POST', list('desk'), null, deskBody({ number: '260B' })],
    ['PATCH', `${list('desk')}/52`, null, deskBody({ active: false })],
    ['GET', `${list('desk')}/52`, null],
    ['GET', list('desk'), null],
    ['POST', list('desk'), null, deskBody({ number: '260B' })],
    ['DELETE', `${list('desk')}/53`, null],
    ['GET', `${list('desk')}/53`, null],
    ['POST', list('desk'), null, deskBody({ number: '260C' })],
  ]);
  deskSeq('desk deactivated', [
    ['PATCH', `${list('desk')}/3`, null, deskBody({ active: false })],
    ['GET', list('desk'), null],
    ['GET', `${list('desk')}/3`, null],
    ['PATCH', `${list('desk')}/3`, null, deskBody({ active: true })],
    ['DELETE', `${list('desk')}/1`, null],
    ['GET', list('desk'), 'page=7'],
    ['GET', `${list('desk')}/1`, null],
  ]);
  deskSeq(
    'desk with a token',
    [
      ['POST', list('desk'), null, deskBody({ number: '280', building: 'P' })],
      ['PUT', `${list('desk')}/52`, null, deskBody({ number: '281' })],
      ['DELETE', `${list('desk')}/52`, null],
      ['GET', `${list('desk')}/52`, null],
    ],
    [['Authorization', `Token ${token}`]],
  );
  // sessions: SessionAuthentication enforces CSRF on writes (a token or no credentials do not)
  const session: [string, string] = ['Cookie', `sessionid=${SESSION}`];
  const withCsrf: [string, string] = ['Cookie', `sessionid=${SESSION}; csrftoken=${CSRF}`];
  for (const [_what, headers] of [
    ['no csrf cookie', [session]],
    ['csrf cookie, no header', [withCsrf]],
    ['csrf cookie and header', [withCsrf, ['X-CSRFToken', CSRF]]],
    ['csrf header wrong', [withCsrf, ['X-CSRFToken', 'x'.repeat(32)]]],
    ['csrf header short', [withCsrf, ['X-CSRFToken', 'abc']]],
    ['csrf cookie and header, origin', [withCsrf, ['X-CSRFToken', CSRF], ['Origin', 'https://evil.example']]],
    ['csrf cookie and header, frontend origin', [withCsrf, ['X-CSRFToken', CSRF], ['Origin', FRONTEND_ORIGIN]]],
    ['bogus session, no csrf', [['Cookie', 'sessionid=bogus0123456789']]],
    ['session and token', [session, ['Authorization', `Token ${token}`]]],
  ] as [string, [string, string][]][]) {
    add({
      method: 'POST',
      path: list('desk'),
      query: null,
      headers: [...headers, json],
      body: deskBody({ number: '290' }),
      group: 'session writes',
    });
    add({ method: 'DELETE', path: `${list('desk')}/3`, query: null, headers, group: 'session writes' });
    add({
      method: 'POST',
      path: list('signature'),
      query: null,
      headers: [...headers, json],
      body: '{}',
      group: 'session writes',
    });
  }

  // O. CORS, with the frontend origin configured: simple requests, preflights, errors.
  const ORIGINS: (string | undefined)[] = [
    undefined,
    FRONTEND_ORIGIN,
    'https://app.team-staging.lcog.org',
    'http://localhost:5173',
    'null',
  ];
  const corsPaths: [string, string, string | null][] = [
    ['GET', list('desk'), 'format=api'],
    ['GET', `${list('desk')}/3`, null],
    ['GET', `${list('desk')}/5`, null],
    ['GET', '/api/', null],
    ['GET', '/api', null],
    ['GET', '/api/v1/', null],
    ['GET', '/api/v1/nosuch', null],
    ['GET', list('desk'), 'format=xml'],
    ['GET', '/', null],
    ['POST', list('desk'), null],
    ['DELETE', list('desk'), null],
    ['HEAD', list('employee'), null],
    ['OPTIONS', list('desk'), null],
    ['OPTIONS', `${list('desk')}/3`, null],
    ['OPTIONS', '/api/v1/nosuch', null],
    ['OPTIONS', '/api/', null],
  ];
  for (const origin of ORIGINS) {
    for (const [method, path, query] of corsPaths)
      add({ server: 'cors', method, path, query, headers: origin ? [['Origin', origin]] : [], group: 'CORS' });
    for (const [acrm, acrh] of [
      ['GET', undefined],
      ['POST', 'content-type'],
      ['PUT', 'authorization, content-type'],
      ['DELETE', 'x-custom'],
      ['PATCH', undefined],
    ] as [string, string | undefined][]) {
      for (const path of [
        list('desk'),
        `${list('desk')}/3`,
        list('signature'),
        `${list('signature')}/1`,
        '/api/v1/nosuch',
      ]) {
        const headers: [string, string][] = [['Access-Control-Request-Method', acrm]];
        if (origin) headers.unshift(['Origin', origin]);
        if (acrh) headers.push(['Access-Control-Request-Headers', acrh]);
        add({ server: 'cors', method: 'OPTIONS', path, query: null, headers, group: 'CORS preflight' });
      }
    }
  }
  for (const headers of [
    [['Authorization', 'Token abc']],
    [['Authorization', `Token ${token}`]],
    [['Cookie', `sessionid=${SESSION}`]],
  ] as [string, string][][]) {
    for (const [method, path, query] of corsPaths.slice(0, 4))
      add({ server: 'cors', method, path, query, headers: [['Origin', FRONTEND_ORIGIN], ...headers], group: 'CORS' });
  }
  for (const h of ['bad_host', 'evil.example', ''])
    add({
      server: 'cors',
      path: list('desk'),
      query: null,
      host: h,
      headers: [['Origin', FRONTEND_ORIGIN]],
      group: 'CORS',
    });
  add({
    server: 'cors',
    method: 'POST',
    path: list('desk'),
    query: null,
    headers: [['Origin', FRONTEND_ORIGIN], json],
    body: deskBody({ number: 'C1' }),
    group: 'CORS',
  });
  add({
    server: 'cors',
    method: 'POST',
    path: list('desk'),
    query: null,
    headers: [['Origin', FRONTEND_ORIGIN], json],
    body: deskBody({ number: '101' }),
    group: 'CORS',
  });

  // P. The production hosts (ALLOWED_HOSTS app.team.lcog.org, api.team.lcog.org).
  for (const h of [
    'app.team.lcog.org',
    'api.team.lcog.org',
    'API.TEAM.LCOG.ORG',
    'api.team.lcog.org:443',
    'api.team.lcog.org.',
    'app.team-staging.lcog.org',
    'team.lcog.org',
    'lcog.org',
    'evil.example',
    'localhost',
    undefined,
  ]) {
    for (const [path, query] of [
      [list('desk'), 'format=api'],
      [list('desk'), 'page=2&format=api'],
      [`${list('desk')}/3`, 'format=api'],
      ['/api/', null],
      ['/api', null],
      ['/api/v1/nosuch', null],
    ] as [string, string | null][]) {
      add({
        server: 'prod-hosts',
        path,
        query,
        host: h,
        headers: [['Origin', FRONTEND_ORIGIN]],
        group: 'Host (production)',
      });
    }
  }
  return out;
}
