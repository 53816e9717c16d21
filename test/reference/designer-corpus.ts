// The designer corpus: requests for the designer's edit of the spec (test/fixtures/designer/openapi.yaml),
// sent to the stub serving that spec and to the reference's designer profile (REF_PROFILE=designer).
// Deterministic: no randomness. Requests come in sequences; a sequence that writes starts from the
// fixtures (both servers reset) and runs its requests one after the other, in the same order on both.
import type { WireRequest } from './send.js';

export interface DesignerRequest extends WireRequest {
  /** Unique, readable: `[seq 3.2] POST /api/v1/desk [content-type="application/json" body="{…"]`. */
  id: string;
  /** Which dimension of the corpus this request covers (for the summary). */
  group: string;
}

export interface Sequence {
  name: string;
  /** Writes: the servers are reset before it and its requests go one at a time. Else reads, any order. */
  writes: boolean;
  requests: DesignerRequest[];
}

export const BASE_HOST = 'api.example.org';
export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A desk the spec accepts. */
export const DESK = {
  building: 'Q',
  floor: 3,
  number: '12A',
  active: true,
  lead: false,
  ergonomic: true,
  held_today: false,
} as const;
/** A signature the spec accepts; `witness` is writeOnly: required in a request, never in an answer. */
const SIGNATURE = { signer: 'Ada Lovelace', signed_on: '2024-05-01', witness: 'Charles Babbage' } as const;

interface Step {
  method?: string;
  path: string;
  /** Content-Type (omitted: none). */
  type?: string;
  /** The body: a string as is, anything else as JSON. */
  body?: unknown;
  headers?: [string, string][];
  group?: string;
}

const D = '/api/v1/desk';
const E = '/api/v1/employee';
const S = '/api/v1/signature';
/** "The newest desk": shows whether a write stored something, and what. */
const NEWEST_DESK = `${D}?ordering=-pk&page_size=1`;

export function buildDesignerCorpus(): Sequence[] {
  const sequences: Sequence[] = [];
  const ids = new Set<string>();

  const request = (seq: string, index: number | null, group: string, s: Step): DesignerRequest => {
    const method = s.method ?? 'GET';
    const headers: [string, string][] = [
      ['Host', BASE_HOST],
      ['Accept', '*/*'],
    ];
    let body: string | undefined;
    if (s.body !== undefined) body = typeof s.body === 'string' ? s.body : JSON.stringify(s.body);
    if (s.type !== undefined) headers.push(['Content-Type', s.type]);
    headers.push(...(s.headers ?? []));
    const extra = headers
      .filter(([k]) => k !== 'Host' && k !== 'Accept')
      .map(([k, v]) => `${k.toLowerCase()}=${JSON.stringify(v)}`);
    if (body !== undefined) extra.push(`body=${JSON.stringify(body.length > 60 ? `${body.slice(0, 60)}…` : body)}`);
    const id = `${index === null ? '' : `[${seq} ${index}] `}${method} ${s.path}${extra.length ? ` [${extra.join(' ')}]` : ''}`;
    if (ids.has(id)) throw new Error(`designer corpus: duplicate request id ${id}`);
    ids.add(id);
    return { id, group: s.group ?? group, method, path: s.path, headers, ...(body !== undefined ? { body } : {}) };
  };

  /** Reads against the fixtures' state, in any order. */
  const reads = (name: string, group: string, steps: Step[]) => {
    sequences.push({ name, writes: false, requests: steps.map((s) => request(name, null, group, s)) });
  };
  /** Writes (and the reads that see them), in order, from the fixtures' state. */
  let writeCount = 0;
  const writes = (group: string, steps: Step[]) => {
    const name = `w${++writeCount}`;
    sequences.push({ name, writes: true, requests: steps.map((s, i) => request(name, i + 1, group, s)) });
  };
  const get = (path: string, group?: string): Step => ({ path, ...(group ? { group } : {}) });

  // --- Reads: lists, items, the API root ------------------------------------------------------------
  reads('reads', 'reads', [
    get('/api/v1/'),
    get('/api/v1/?format=json'),
    get(D),
    get(`${D}?format=api`),
    get(`${D}?page=2`),
    get(`${D}?page=3&format=api`),
    get(`${D}?page=last`),
    get(`${D}?page=4`),
    get(`${D}?page=`),
    get(`${D}/1`),
    get(`${D}/5?format=api`),
    get(`${D}/48`),
    get(`${D}/13`),
    get(`${D}/abc`),
    get(`${D}/99999999999999999999`),
    get(`${D}/`),
    get(E),
    get(`${E}?format=api`),
    get(`${E}/9`),
    get(`${E}/7?format=api`),
    get(`${E}/8`),
    get(`${E}/x`),
    get(`${E}/99999999999999999999`),
    get(`${E}/9.json`),
    get(S),
    get(`${S}?page=2`),
    get(`${S}?page=3`),
    get(`${S}?page=4`),
    get(`${S}?page=5`),
    get(`${S}?page=last&format=api`),
    get(`${S}?page=6`),
    get(`${S}/1`),
    get('/api/v1/jobtitle'),
    { method: 'HEAD', path: D },
    { method: 'HEAD', path: `${D}/1` },
    { method: 'HEAD', path: `${E}/9` },
    // parameters another collection does not declare: nothing filters, searches, orders or sizes there
    get(`${E}?page_size=1`, 'parameters elsewhere'),
    get(`${E}?search=Ada`, 'parameters elsewhere'),
    get(`${E}?ordering=-id`, 'parameters elsewhere'),
    get(`${E}?name=Ada%20Lovelace`, 'parameters elsewhere'),
    get(`${S}?page_size=50`, 'parameters elsewhere'),
    get(`${S}?ordering=-pk`, 'parameters elsewhere'),
    get(`${S}?kind=paper`, 'parameters elsewhere'),
  ]);

  // --- Field filters (django-filter: exact; NumberFilter parses a Decimal; BooleanWidget) -----------
  const filters = [
    'building=A',
    'building=B',
    'building=b',
    'building=Z',
    'building=',
    'building=%20B%20',
    'building=A&building=B',
    'building=AB',
    'building=%00',
    'building=%C3%BC',
    'Building=A',
    'floor=1',
    'floor=2',
    'floor=2.0',
    'floor=2.5',
    'floor=-0',
    'floor=%2B2',
    'floor=%202%20',
    'floor=abc',
    'floor=',
    'floor=1e0',
    'floor=2E0',
    'floor=Infinity',
    'floor=NaN',
    'floor=%D9%A2',
    'floor=1_0',
    'floor=0x2',
    'floor=1&floor=2',
    'floor=1&floor=abc',
    'floor=abc&floor=1',
    'floor=99999999999999999999',
    'floor=-99999999999999999999',
    'floor=1e30',
    'floor=1e60',
    'floor=9223372036854775807',
    'active=true',
    'active=false',
    'active=True',
    'active=FALSE',
    'active=1',
    'active=0',
    'active=yes',
    'active=on',
    'active=',
    'active=abc',
    'active=false&active=true',
    'building=A&floor=2',
    'building=B&active=false',
    'building=A&floor=9',
    'floor=abc&building=%00',
    'floor=abc&active=nope',
    'colour=red',
    'building=A&page=2',
    'floor=1&page=last',
    'active=true&page=2&format=api',
    'active=true&page=3',
    'building=C&format=api&page=1',
    'floor=abc&page=99',
    'floor=99999999999999999999&page=2',
  ];
  reads(
    'filters',
    'filters',
    filters.map((q) => get(`${D}?${q}`)),
  );

  // --- Search (SearchFilter over number and building: every term in some field, icontains) ----------
  const searches = [
    'search=204a',
    'search=204A',
    'search=c%2020',
    'search=c+20',
    'search=a,1',
    'search=a%2C1',
    'search=,,',
    'search=%22204a%22',
    'search=%22c%2020%22',
    'search=%27b%27',
    'search=%22',
    'search=%22%22',
    'search=a%22b',
    'search=%22a,1%22',
    'search=x',
    'search=',
    'search=%20',
    'search=%25',
    'search=_',
    'search=b',
    'search=B',
    'search=2%203%204',
    'search=1%091',
    'search=a%00',
    'search=a&search=c',
    'search=%C3%BC',
    'search=204a&page=2',
    'search=2&ordering=-floor&format=api',
    'search=2&ordering=-floor&format=api&page=2',
    'search=2&page=2&format=api',
    'search=0&page_size=2&page=2',
    'search=c&building=C',
    'search=1&floor=1&active=true',
    'search=%22c%2020%22&page=2',
    'search=%22204a%22&format=api&page_size=1',
  ];
  reads(
    'search',
    'search',
    searches.map((q) => get(`${D}?${q}`)),
  );

  // --- Ordering (OrderingFilter over floor, number, pk) ---------------------------------------------
  const orderings = [
    'ordering=floor',
    'ordering=-floor',
    'ordering=number',
    'ordering=-number',
    'ordering=pk',
    'ordering=-pk',
    'ordering=floor,number',
    'ordering=-floor,nope,number',
    'ordering=nope',
    'ordering=building',
    'ordering=url',
    'ordering=',
    'ordering=%20-floor',
    'ordering=--floor',
    'ordering=floor,-pk',
    'ordering=-floor,-number',
    'ordering=FLOOR',
    'ordering=floor&ordering=-pk',
    'ordering=held_today',
    'ordering=id',
    'ordering=number,floor&page=2',
    'ordering=-number&page_size=3&page=2',
    'ordering=floor,,number',
    'ordering=floor%20,%20-pk',
    'ordering=-floor&format=api&page=2',
    'ordering=floor__lt',
    'ordering=floor;pk',
  ];
  reads(
    'ordering',
    'ordering',
    orderings.map((q) => get(`${D}?${q}`)),
  );

  // --- page_size (PageNumberPagination: page_size_query_param, max_page_size 50) -------------------
  const pageSizes = [
    'page_size=1',
    'page_size=3',
    'page_size=12',
    'page_size=50',
    'page_size=51',
    'page_size=100',
    'page_size=0',
    'page_size=-1',
    'page_size=abc',
    'page_size=',
    'page_size=2.0',
    'page_size=%203',
    'page_size=%D9%A3',
    'page_size=1_0',
    'page_size=99999999999999999999',
    'page_size=3&page=2',
    'page_size=3&page=last',
    'page_size=3&page=5',
    'page_size=100&page=2',
    'page_size=2&format=api&page=3',
    'page_size=2&page_size=4',
    'page_size=4&page=2&format=api',
    'page=2&page_size=3',
    'page_size=0&page=2',
    'page_size=abc&page=3',
    'PAGE_SIZE=2',
    'page_size=5&page=',
  ];
  reads(
    'page_size',
    'page_size',
    pageSizes.map((q) => get(`${D}?${q}`)),
  );

  // --- OPTIONS on each route (SimpleMetadata; actions where a POST or PUT is allowed) ----------------
  reads(
    'options',
    'OPTIONS',
    [D, `${D}?format=api`, `${D}/1`, `${D}/13`, `${D}/abc`, E, `${E}/9`, `${E}/8`, S, `${S}/1`, '/api/v1/'].map(
      (path) => ({ method: 'OPTIONS', path }),
    ),
  );

  // --- Methods not declared (405 + Allow) -----------------------------------------------------------
  const undeclared: Step[] = [
    { method: 'DELETE', path: D },
    { method: 'PUT', path: D, type: JSON_TYPE, body: DESK },
    { method: 'PATCH', path: D, type: JSON_TYPE, body: { floor: 1 } },
    { method: 'POST', path: `${D}/1`, type: JSON_TYPE, body: DESK },
    { method: 'POST', path: `${D}/13`, type: JSON_TYPE, body: DESK },
    { method: 'POST', path: E, type: JSON_TYPE, body: { name: 'x' } },
    { method: 'PUT', path: E, type: JSON_TYPE, body: { name: 'x' } },
    { method: 'DELETE', path: E },
    { method: 'PUT', path: `${E}/9`, type: JSON_TYPE, body: { name: 'x' } },
    { method: 'PATCH', path: `${E}/9`, type: JSON_TYPE, body: { name: 'x' } },
    { method: 'DELETE', path: `${E}/9` },
    { method: 'DELETE', path: `${E}/8` },
    { method: 'PUT', path: S, type: JSON_TYPE, body: SIGNATURE },
    { method: 'PATCH', path: S, type: JSON_TYPE, body: SIGNATURE },
    { method: 'DELETE', path: S },
    { method: 'DELETE', path: `${S}/1` },
    { method: 'TRACE', path: D },
    { method: 'PROPFIND', path: `${D}/1` },
    { method: 'POST', path: '/api/v1/', type: JSON_TYPE, body: DESK },
    { method: 'DELETE', path: `${D}?page=2` },
    { method: 'POST', path: D, type: 'text/plain', body: 'hello', headers: [['Accept', 'text/html']] },
  ];
  // (none of these may write; they run as a sequence that is followed by a look at the newest desk)
  writes('methods not declared', [...undeclared, get(NEWEST_DESK), get(`${D}/1`), get(`${E}/9`)]);

  // --- POST /desk: valid bodies, and what is stored --------------------------------------------------
  writes('create desk', [
    { method: 'POST', path: D, type: JSON_TYPE, body: DESK },
    get(`${D}/49`),
    get(`${D}?page=last`),
    get(`${D}?ordering=-pk&page_size=3`),
    get(`${D}?search=12a`),
    get(`${D}?building=Q&floor=3`),
    { method: 'POST', path: D, type: JSON_TYPE, body: { ...DESK, number: '7' } },
    { method: 'DELETE', path: `${D}/50` },
    { method: 'POST', path: D, type: JSON_TYPE, body: { ...DESK, number: '8' } },
    get(`${D}?page_size=50`),
    get(`${D}/50`),
    { method: 'DELETE', path: `${D}/49` },
    { method: 'POST', path: D, type: JSON_TYPE, body: { ...DESK, number: '9' } },
    get(`${D}?ordering=-pk&page_size=2`),
  ]);
  writes('create desk', [
    { method: 'POST', path: `${D}?format=api`, type: JSON_TYPE, body: DESK },
    get(`${D}/49?format=api`),
    get(`${D}?format=api&page=3`),
  ]);
  writes('create desk', [
    {
      method: 'POST',
      path: D,
      type: JSON_TYPE,
      body: { url: 'http://elsewhere.example/x', pk: 999, ...DESK, colour: 'red', extra: { a: 1 } },
    },
    get(`${D}/999`),
    get(NEWEST_DESK),
  ]);
  writes('create desk', [
    { method: 'POST', path: `${D}?page=2&search=zz`, type: JSON_TYPE, body: DESK },
    get(NEWEST_DESK),
  ]);
  writes('create desk', [
    { method: 'POST', path: D, type: `${JSON_TYPE}; charset=utf-8`, body: DESK },
    get(NEWEST_DESK),
  ]);
  writes('create desk', [{ method: 'POST', path: D, type: 'Application/JSON', body: DESK }, get(NEWEST_DESK)]);
  writes('create desk', [
    { method: 'POST', path: D, type: JSON_TYPE, body: `  ${JSON.stringify(DESK, null, 2)}\n` },
    get(NEWEST_DESK),
  ]);
  writes('create desk', [
    { method: 'POST', path: D, type: JSON_TYPE, body: { ...DESK, number: '  12a  ', building: ' B ' } },
    get(NEWEST_DESK),
  ]);
  writes('create desk', [
    {
      method: 'POST',
      path: D,
      type: JSON_TYPE,
      body: { ...DESK, floor: '7', active: 'true', lead: 'False', ergonomic: 1, held_today: '0' },
    },
    get(NEWEST_DESK),
  ]);
  writes('create desk', [
    {
      method: 'POST',
      path: D,
      type: JSON_TYPE,
      body: '{"building":"A","building":"B","floor":1,"number":"1","active":true,"lead":true,"ergonomic":true,"held_today":true}',
    },
    get(NEWEST_DESK),
  ]);
  writes('create desk', [
    { method: 'POST', path: D, type: JSON_TYPE, body: { ...DESK, floor: -5, number: '12345678' } },
    { method: 'POST', path: D, type: JSON_TYPE, body: { ...DESK, floor: 120 } },
    get(`${D}?ordering=-pk&page_size=2`),
  ]);

  // --- POST /desk: invalid JSON bodies (each from the fixtures, followed by the newest desk) ---------
  const invalidDesks: [string, unknown][] = [
    ['empty object', {}],
    ['missing building', omit(DESK, 'building')],
    ['missing floor', omit(DESK, 'floor')],
    ['missing number', omit(DESK, 'number')],
    ['missing active', omit(DESK, 'active')],
    ['only booleans missing', { building: 'A', floor: 1, number: '1' }],
    ['stub test', { building: 'qq', floor: 'x', number: 12 }],
    ['building lower case', { ...DESK, building: 'q' }],
    ['building blank', { ...DESK, building: '' }],
    ['building whitespace', { ...DESK, building: '   ' }],
    ['building null', { ...DESK, building: null }],
    ['building number', { ...DESK, building: 1 }],
    ['building boolean', { ...DESK, building: true }],
    ['building list', { ...DESK, building: ['A'] }],
    ['building object', { ...DESK, building: { a: 'A' } }],
    ['building non-ASCII', { ...DESK, building: 'Ä' }],
    ['building newline', { ...DESK, building: 'B\n' }],
    ['floor string', { ...DESK, floor: 'x' }],
    ['floor "3.0"', { ...DESK, floor: '3.0' }],
    ['floor 3.5', { ...DESK, floor: 3.5 }],
    ['floor "3.5"', { ...DESK, floor: '3.5' }],
    ['floor above', { ...DESK, floor: 121 }],
    ['floor below', { ...DESK, floor: -6 }],
    ['floor null', { ...DESK, floor: null }],
    ['floor boolean', { ...DESK, floor: true }],
    ['floor blank', { ...DESK, floor: '' }],
    ['floor arabic-indic', { ...DESK, floor: '٣' }],
    ['floor underscore', { ...DESK, floor: '1_0' }],
    ['floor 1e2', { ...DESK, floor: 1e2 }],
    ['floor 1e20', { ...DESK, floor: 1e20 }],
    [
      'floor huge int',
      '{"building":"Q","floor":100000000000000000000,"number":"12A","active":true,"lead":false,"ergonomic":true,"held_today":false}',
    ],
    ['floor spaces', { ...DESK, floor: '  7  ' }],
    ['floor list', { ...DESK, floor: [3] }],
    ['floor object', { ...DESK, floor: {} }],
    ['floor hex', { ...DESK, floor: '0x10' }],
    ['number pattern and length', { ...DESK, floor: 500, number: '1234-5678A' }],
    ['number too long', { ...DESK, number: '123456789' }],
    ['number blank', { ...DESK, number: '' }],
    ['number whitespace', { ...DESK, number: '   ' }],
    ['number letters first', { ...DESK, number: 'A12' }],
    ['number inner space', { ...DESK, number: '12 A' }],
    ['number 12.5', { ...DESK, number: 12.5 }],
    ['number boolean', { ...DESK, number: true }],
    ['number null', { ...DESK, number: null }],
    ['number BOM', { ...DESK, number: '\ufeff12' }],
    ['number unit separator', { ...DESK, number: '\u001f12' }],
    ['number NEL', { ...DESK, number: '12\u0085' }],
    ['number no-break space', { ...DESK, number: '\u00a012\u00a0' }],
    ['number arabic-indic', { ...DESK, number: '١٢' }],
    ['number NUL', { ...DESK, number: '1\u00002' }],
    [
      'number lone surrogate',
      '{"building":"Q","floor":3,"number":"\\ud800","active":true,"lead":false,"ergonomic":true,"held_today":false}',
    ],
    ['active "yes"', { ...DESK, active: 'yes' }],
    ['active "on"', { ...DESK, active: 'on' }],
    ['active "TRUE"', { ...DESK, active: 'TRUE' }],
    ['active "tRuE"', { ...DESK, active: 'tRuE' }],
    ['active "YeS"', { ...DESK, active: 'YeS' }],
    ['active "nope"', { ...DESK, active: 'nope' }],
    ['active 2', { ...DESK, active: 2 }],
    [
      'active 0.0',
      '{"building":"Q","floor":3,"number":"12A","active":0.0,"lead":false,"ergonomic":true,"held_today":false}',
    ],
    ['active null', { ...DESK, active: null }],
    ['active blank', { ...DESK, active: '' }],
    ['active "null"', { ...DESK, active: 'null' }],
    ['active list', { ...DESK, active: [true] }],
    [
      'everything wrong',
      { building: 'ab1', floor: 'high', number: '', active: 'maybe', lead: null, ergonomic: [], held_today: {} },
    ],
  ];
  for (const [, body] of invalidDesks)
    writes('POST desk: invalid JSON values', [{ method: 'POST', path: D, type: JSON_TYPE, body }, get(NEWEST_DESK)]);

  // --- POST /desk: bodies that are no JSON object, malformed JSON, content types, empty bodies -------
  const notObjects: [string | undefined, string | undefined][] = [
    [JSON_TYPE, JSON.stringify([DESK])],
    [JSON_TYPE, '[1]'],
    [JSON_TYPE, '"x"'],
    [JSON_TYPE, 'null'],
    [JSON_TYPE, '42'],
    [JSON_TYPE, 'true'],
    [JSON_TYPE, 'NaN'],
    [
      JSON_TYPE,
      '{"building":"Q","floor":NaN,"number":"12A","active":true,"lead":false,"ergonomic":true,"held_today":false}',
    ],
    [
      JSON_TYPE,
      '{"building":"Q","floor":Infinity,"number":"12A","active":true,"lead":false,"ergonomic":true,"held_today":false}',
    ],
    [
      JSON_TYPE,
      '{"building":"Q","floor":1e999,"number":"12A","active":true,"lead":false,"ergonomic":true,"held_today":false}',
    ],
    [JSON_TYPE, '{not json'],
    [JSON_TYPE, '{"building": '],
    [JSON_TYPE, '{"a":1,}'],
    [JSON_TYPE, "{'building':'A'}"],
    [JSON_TYPE, '{"building":"A"} x'],
    [JSON_TYPE, '['],
    [JSON_TYPE, '{"floor": 01}'],
    [JSON_TYPE, '\ufeff{}'],
    [JSON_TYPE, '{"building":"A"\n,\n"floor":}'],
    [JSON_TYPE, ''],
    [JSON_TYPE, '   '],
    [undefined, ''],
    [undefined, JSON.stringify(DESK)],
    ['text/plain', 'hello'],
    ['text/plain', JSON.stringify(DESK)],
    ['application/xml', '<desk/>'],
    ['application/vnd.api+json', JSON.stringify(DESK)],
    ['application/json-patch+json', '[]'],
    ['Text/Plain; charset=latin-1', 'x'],
    ['application/octet-stream', 'x'],
    [
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="building"\r\n\r\nB\r\n--XyZ--\r\n',
    ],
    [
      'multipart/form-data; boundary=XyZ',
      multipart('XyZ', { building: 'M', floor: '4', number: '401', active: 'true' }),
    ],
  ];
  for (const [type, body] of notObjects)
    writes('POST desk: bodies and content types', [
      { method: 'POST', path: D, ...(type ? { type } : {}), ...(body !== undefined ? { body } : {}) },
      get(NEWEST_DESK),
    ]);

  // --- POST /desk: form-encoded bodies --------------------------------------------------------------
  const forms = [
    'building=R&floor=2&number=7&active=on',
    'building=R&floor=2&number=7',
    'building=R&floor=2&number=7&active=true&lead=True&ergonomic=1&held_today=off',
    'building=R&floor=&number=7',
    'building=R&floor=2&number=7&active=',
    'building=R&floor=2&number=7&active=tRuE',
    'building=R&building=S&floor=2&number=7',
    'building=R&floor=2.0&number=7',
    'building=R&floor=2&number=7&pk=5&url=x&colour=red',
    '',
    'building=%00&floor=2&number=7',
    'building=R&floor=2&number=%EF%BB%BF12',
    'building=R&floor=2&number=+12+',
    'building=r&floor=abc&number=',
    'building=R&floor=2&number=7&active=maybe',
    'building=R;floor=2;number=7',
    'building=R&floor=2&number=7&&',
    'building',
  ];
  for (const body of forms)
    writes('POST desk: form-encoded', [{ method: 'POST', path: D, type: FORM_TYPE, body }, get(NEWEST_DESK)]);

  // --- PUT / PATCH / DELETE on a desk ---------------------------------------------------------------
  writes('PATCH desk', [
    { method: 'PATCH', path: `${D}/5`, type: JSON_TYPE, body: { floor: 9 } },
    get(`${D}/5`),
    get(`${D}?floor=9`),
    get(`${D}?ordering=-floor&page_size=2`),
  ]);
  writes('PATCH desk', [{ method: 'PATCH', path: `${D}/5`, type: JSON_TYPE, body: {} }, get(`${D}/5`)]);
  writes('PATCH desk', [
    { method: 'PATCH', path: `${D}/5`, type: JSON_TYPE, body: { floor: 'x', building: null } },
    get(`${D}/5`),
  ]);
  writes('PATCH desk', [
    { method: 'PATCH', path: `${D}/5`, type: JSON_TYPE, body: { pk: 77, url: 'http://x.example/', colour: 'red' } },
    get(`${D}/5`),
    get(`${D}/77`),
  ]);
  writes('PATCH desk', [{ method: 'PATCH', path: `${D}/5`, type: FORM_TYPE, body: 'floor=9' }, get(`${D}/5`)]);
  writes('PATCH desk', [{ method: 'PATCH', path: `${D}/5`, type: FORM_TYPE, body: 'active=' }, get(`${D}/5`)]);
  writes('PATCH desk', [
    { method: 'PATCH', path: `${D}/5?format=api`, type: JSON_TYPE, body: { building: 'Z', number: '999z' } },
    get(`${D}?search=z`),
    get(`${D}?building=Z`),
    get(`${D}?ordering=-number&page_size=3`),
  ]);
  writes('PATCH desk', [
    { method: 'PATCH', path: `${D}/5`, type: JSON_TYPE, body: { number: '123456789' } },
    get(`${D}/5`),
  ]);
  writes('PATCH desk', [
    { method: 'PATCH', path: `${D}/5`, type: JSON_TYPE, body: { active: 'FaLsE' } },
    get(`${D}/5`),
  ]);
  writes('PATCH desk', [{ method: 'PATCH', path: `${D}/5`, type: JSON_TYPE, body: [{ floor: 1 }] }, get(`${D}/5`)]);
  writes('PATCH desk', [{ method: 'PATCH', path: `${D}/5`, type: JSON_TYPE, body: '{"floor": ' }, get(`${D}/5`)]);
  writes('PATCH desk', [{ method: 'PATCH', path: `${D}/5`, type: 'text/plain', body: 'floor=9' }, get(`${D}/5`)]);
  writes('PATCH desk', [{ method: 'PATCH', path: `${D}/5` }, get(`${D}/5`)]);
  writes('PATCH desk', [
    { method: 'PATCH', path: `${D}/13`, type: JSON_TYPE, body: { floor: 1 } },
    { method: 'PATCH', path: `${D}/abc`, type: JSON_TYPE, body: { floor: 1 } },
    get(NEWEST_DESK),
  ]);
  writes('PUT desk', [{ method: 'PUT', path: `${D}/5`, type: JSON_TYPE, body: { floor: 9 } }, get(`${D}/5`)]);
  writes('PUT desk', [
    { method: 'PUT', path: `${D}/5`, type: JSON_TYPE, body: { ...DESK, building: 'Z' } },
    get(`${D}/5`),
    get(`${D}?building=Z`),
    get(`${D}?page=2`),
  ]);
  writes('PUT desk', [
    { method: 'PUT', path: `${D}/5?format=api`, type: JSON_TYPE, body: { ...DESK, pk: 5000, url: 'x' } },
    get(`${D}/5`),
    get(`${D}/5000`),
  ]);
  writes('PUT desk', [
    { method: 'PUT', path: `${D}/5`, type: FORM_TYPE, body: 'building=R&floor=2&number=7' },
    get(`${D}/5`),
  ]);
  writes('PUT desk', [
    { method: 'PUT', path: `${D}/5`, type: JSON_TYPE, body: { ...DESK, held_today: 'YES', lead: 'oFf' } },
    get(`${D}/5`),
  ]);
  writes('PUT desk', [
    { method: 'PUT', path: `${D}/5`, type: JSON_TYPE, body: {} },
    { method: 'PUT', path: `${D}/5`, type: JSON_TYPE, body: '[]' },
    { method: 'PUT', path: `${D}/5`, type: 'text/plain', body: 'x' },
    get(`${D}/5`),
  ]);
  writes('PUT desk', [
    { method: 'PUT', path: `${D}/4242`, type: JSON_TYPE, body: DESK },
    { method: 'PUT', path: `${D}/abc`, type: JSON_TYPE, body: DESK },
    { method: 'PUT', path: `${D}/99999999999999999999`, type: JSON_TYPE, body: DESK },
    { method: 'PUT', path: `${D}/4242`, type: JSON_TYPE, body: '{bad' },
    get(NEWEST_DESK),
    get(`${D}/4242`),
  ]);
  writes('DELETE desk', [
    { method: 'DELETE', path: `${D}/5` },
    get(`${D}/5`),
    get(D),
    get(`${D}?building=A`),
    { method: 'DELETE', path: `${D}/5` },
    { method: 'PATCH', path: `${D}/5`, type: JSON_TYPE, body: { floor: 1 } },
    { method: 'OPTIONS', path: `${D}/5` },
  ]);
  writes('DELETE desk', [
    { method: 'DELETE', path: `${D}/48?format=api` },
    get(`${D}?page=last`),
    { method: 'POST', path: D, type: JSON_TYPE, body: DESK },
    get(`${D}?ordering=-pk&page_size=2`),
  ]);
  writes('DELETE desk', [
    { method: 'DELETE', path: `${D}/4242` },
    { method: 'DELETE', path: `${D}/abc` },
    { method: 'DELETE', path: `${D}/99999999999999999999` },
    { method: 'DELETE', path: `${D}/1`, type: JSON_TYPE, body: '{not json' },
    get(`${D}/1`),
    get(D),
  ]);
  writes('DELETE desk', [
    { method: 'DELETE', path: `${D}/1` },
    { method: 'DELETE', path: `${D}/9` },
    { method: 'DELETE', path: `${D}/14` },
    get(`${D}?building=A`),
    get(`${D}?page=2`),
    { method: 'PATCH', path: `${D}/18`, type: JSON_TYPE, body: { building: 'A' } },
    get(`${D}?building=A&ordering=-pk`),
  ]);

  // --- POST /signature ------------------------------------------------------------------------------
  writes('create signature', [
    { method: 'POST', path: S, type: JSON_TYPE, body: SIGNATURE },
    get(`${S}?page=last`),
    get(`${S}?page=6`),
    { method: 'POST', path: S, type: JSON_TYPE, body: { ...SIGNATURE, kind: 'paper' } },
    get(`${S}?page=last`),
  ]);
  writes('create signature', [
    { method: 'POST', path: `${S}?format=api`, type: JSON_TYPE, body: { pk: 3, ...SIGNATURE, url: 'x', extra: 1 } },
    get(`${S}?page=last`),
  ]);
  writes('create signature', [
    { method: 'POST', path: S, type: FORM_TYPE, body: 'signer=Grace&signed_on=2024-01-05&witness=Ada' },
    get(`${S}?page=last`),
  ]);
  writes('create signature', [
    { method: 'POST', path: `${S}?format=api`, type: JSON_TYPE, body: { ...SIGNATURE, witness: 'x'.repeat(20) } },
    get(`${S}?page=last`),
  ]);
  const invalidSignatures: unknown[] = [
    {},
    { ...SIGNATURE, kind: 'Paper' },
    { ...SIGNATURE, kind: '' },
    { ...SIGNATURE, kind: null },
    { ...SIGNATURE, kind: 1 },
    { ...SIGNATURE, signer: '' },
    { ...SIGNATURE, signer: '   ' },
    { ...SIGNATURE, signer: 'x'.repeat(41) },
    { ...SIGNATURE, signer: 'x'.repeat(40) },
    { ...SIGNATURE, signer: null },
    { ...SIGNATURE, signer: 123 },
    { signed_on: '2024-05-01' },
    { ...SIGNATURE, signed_on: '2024-02-30' },
    { ...SIGNATURE, signed_on: '2024-1-5' },
    { ...SIGNATURE, signed_on: '2024-01-05T00:00:00' },
    { ...SIGNATURE, signed_on: 'yesterday' },
    { ...SIGNATURE, signed_on: '' },
    { ...SIGNATURE, signed_on: null },
    { ...SIGNATURE, signed_on: 20240105 },
    { ...SIGNATURE, signed_on: '٢٠٢٤-٠١-٠٥' },
    { ...SIGNATURE, signed_on: ' 2024-01-05 ' },
    { signer: '', signed_on: 'x', kind: 'x' },
    omit(SIGNATURE, 'witness'),
    { ...SIGNATURE, witness: '' },
    { ...SIGNATURE, witness: null },
    { ...SIGNATURE, witness: 'x'.repeat(21) },
    { ...SIGNATURE, witness: ['Ada'] },
    [SIGNATURE],
    '{"signer": "Ada", ',
  ];
  for (const body of invalidSignatures)
    writes('POST signature: invalid', [{ method: 'POST', path: S, type: JSON_TYPE, body }, get(`${S}?page=last`)]);
  writes('POST signature: invalid', [
    { method: 'POST', path: S, type: 'text/plain', body: 'x' },
    get(`${S}?page=last`),
  ]);
  writes('POST signature: invalid', [
    { method: 'POST', path: S, type: FORM_TYPE, body: 'signer=Grace&signed_on=2024-01-05' },
    get(`${S}?page=last`),
  ]);
  return sequences;
}

function omit<T extends object, K extends keyof T>(o: T, key: K): Omit<T, K> {
  const copy = { ...o };
  delete copy[key];
  return copy;
}

function multipart(boundary: string, fields: Record<string, string>): string {
  return `${Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')}--${boundary}--\r\n`;
}

/** Every request of the corpus, in order. */
export function flatCorpus(sequences: readonly Sequence[] = buildDesignerCorpus()): DesignerRequest[] {
  return sequences.flatMap((s) => s.requests);
}
