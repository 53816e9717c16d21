import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Journal, type JournalRecord } from '../../../../src/core/stub/journal.js';

const entry = (i: number, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  time: Date.UTC(2026, 10, 27, 9, 0, 0, i),
  method: 'GET',
  url: `/api/v1/desk?page=${i}`,
  headers: () => ['Host', 'localhost:4010', 'Authorization', 'Token abc'],
  body: undefined,
  operationId: undefined,
  scenario: undefined,
  scenarioFrom: undefined,
  status: 200,
  durationMs: 0.25,
  ...extra,
});

const utf8 = (t: string) => new TextEncoder().encode(t);

it('keeps a short body whole, as UTF-8 text, and an empty one as none', () => {
  const j = new Journal(3);
  j.record(entry(1, { body: utf8('{"number":"\u00e9 \u{1F600}"}') }));
  j.record(entry(2, { body: new Uint8Array(0) }));
  j.record(entry(3, { body: Uint8Array.of(0xff, 0x41) }));
  const [a, b, c] = j.entries();
  expect(a?.body).toBe('{"number":"\u00e9 \u{1F600}"}');
  expect(a?.bodyTruncated).toBeUndefined();
  expect(b?.body).toBeUndefined();
  expect(c?.body).toBe('\uFFFDA');
});

describe('the journal: the last N requests, kept as bytes', () => {
  it.each([1, 3, 10, 1000])('keeps exactly the last %i, in order, ids counting on across its segments', (n) => {
    const j = new Journal(n);
    for (let i = 1; i <= 3 * n + 2; i++) j.record(entry(i));
    const kept = j.entries();
    expect(kept.map((e) => e.id)).toEqual(Array.from({ length: n }, (_, k) => 2 * n + 3 + k));
    expect(kept.at(-1)?.url).toBe(`/api/v1/desk?page=${3 * n + 2}`);
  });

  it('gives back every field as recorded: texts in any script, a body, its cut, the scenario', () => {
    const j = new Journal(5);
    j.record(
      entry(1, {
        method: 'POST',
        url: '/api/v1/d\u00e9sk?q=\u{1F600}',
        headers: () => [
          'X-Name',
          'Bj\u00f6rk \u6771\u4eac',
          'Cookie',
          'sessionid=s; theme=dark',
          'Accept',
          'a',
          'accept',
          'b',
        ],
        // Cut at 64 KiB: the kept bytes end inside the é, which decodes as U+FFFD.
        body: utf8(`${'x'.repeat(64 * 1024 - 1)}\u00e9`),
        operationId: 'createDesk',
        scenario: 'code=500',
        scenarioFrom: 'scenarios',
        status: 500,
        durationMs: 1.5,
      }),
    );
    j.record(entry(2));
    const [first, second] = j.entries();
    expect(first).toEqual({
      id: 1,
      time: '2026-11-27T09:00:00.001Z',
      method: 'POST',
      url: '/api/v1/d\u00e9sk?q=\u{1F600}',
      headers: {
        'x-name': 'Bj\u00f6rk \u6771\u4eac',
        cookie: 'sessionid=[redacted]; theme=[redacted]',
        accept: 'a, b',
      },
      body: `${'x'.repeat(64 * 1024 - 1)}\uFFFD`,
      bodyTruncated: true,
      operationId: 'createDesk',
      scenario: 'code=500',
      scenarioFrom: 'scenarios',
      status: 500,
      durationMs: 1.5,
    });
    // Absent fields stay absent.
    expect(Object.keys(second ?? {})).toEqual(['id', 'time', 'method', 'url', 'headers', 'status', 'durationMs']);
    expect(second?.headers.authorization).toBe('Token [redacted]');
  });

  it('grows a segment for large entries, and filters as before', () => {
    const j = new Journal(50);
    const body = 'x'.repeat(64 * 1024);
    for (let i = 1; i <= 60; i++) j.record(entry(i, i % 2 ? { body: utf8(body), method: 'POST' } : {}));
    const kept = j.entries();
    expect(kept).toHaveLength(50);
    expect(kept.filter((e) => e.body === body)).toHaveLength(25);
    expect(j.entries({ method: 'post', since: 50 }).map((e) => e.id)).toEqual([51, 53, 55, 57, 59]);
    expect(j.entries({ path: '/api/v1/desk' })).toHaveLength(50);
    j.clear();
    expect(j.entries()).toEqual([]);
    expect(new Journal(0).entries()).toEqual([]);
  });
});

describe('credentials never enter the journal', () => {
  it.each<[string, string, string]>([
    ['Authorization', 'Token abc', 'Token [redacted]'],
    ['authorization', 'Bearer a.b.c', 'Bearer [redacted]'],
    ['Authorization', 'abc', '[redacted]'],
    ['Authorization', 'Token', '[redacted]'],
    ['Proxy-Authorization', 'Basic dTpw', 'Basic [redacted]'],
    ['Cookie', 'sessionid=s; csrftoken=t', 'sessionid=[redacted]; csrftoken=[redacted]'],
    ['Cookie', 'flag', 'flag=[redacted]'],
    ['X-CSRFToken', 'Token abc', 'Token [redacted]'],
    ['X-XSRF-Token', 'abc', '[redacted]'],
    ['X-Auth-Token', 'abc', '[redacted]'],
    ['X-Client-Secret', 'abc', '[redacted]'],
    ['X-Password', 'abc', '[redacted]'],
    ['X-Api-Key', 'abc', '[redacted]'],
    ['apikey', 'abc', '[redacted]'],
    ['Accept', 'Token abc', 'Token abc'],
    ['X-Stub-Session', 'run-1', 'run-1'],
  ])('%s: %s → %s', (name, value, want) => {
    const j = new Journal(1);
    j.record(entry(1, { headers: () => [name, value] }));
    expect(j.entries()[0]?.headers).toEqual({ [name.toLowerCase()]: want });
  });
});

describe('what the journal keeps', () => {
  it.each<[string, Uint8Array | undefined, { body?: string; bodyTruncated?: boolean }]>([
    ['no body', undefined, {}],
    ['an empty body', new Uint8Array(), {}],
    ['a body as UTF-8 text', new TextEncoder().encode('{"a":"é"}'), { body: '{"a":"é"}' }],
    ['bytes that are not UTF-8 as U+FFFD', Uint8Array.of(0x61, 0xff, 0x62), { body: 'a\ufffdb' }],
    ['64 KiB whole', new Uint8Array(64 * 1024).fill(0x61), { body: 'a'.repeat(64 * 1024) }],
    ['past 64 KiB cut', new Uint8Array(64 * 1024 + 1).fill(0x61), { body: 'a'.repeat(64 * 1024), bodyTruncated: true }],
  ])('the body: %s', (_name, body, want) => {
    const j = new Journal(1);
    j.record(entry(1, { body }));
    const { body: kept, bodyTruncated } = j.entries()[0] ?? {};
    expect({ ...(kept !== undefined ? { body: kept } : {}), ...(bodyTruncated ? { bodyTruncated } : {}) }).toEqual(
      want,
    );
  });

  it('a journal of capacity 0 keeps nothing', () => {
    const j = new Journal(0);
    j.record(entry(1));
    expect([j.capacity, j.entries()]).toEqual([0, []]);
  });

  it('an entry too large for a segment is left out; ids count on without it, those before kept', () => {
    const j = new Journal(10);
    j.record(entry(1));
    j.record(entry(2));
    // A segment holds at most 2 Mi UTF-16 units.
    j.record(entry(3, { headers: () => ['X-Big', 'x'.repeat(2_100_000)] }));
    j.record(entry(4));
    expect(j.entries().map((e) => [e.id, e.url])).toEqual([
      [1, '/api/v1/desk?page=1'],
      [2, '/api/v1/desk?page=2'],
      [3, '/api/v1/desk?page=4'],
    ]);
  });

  it.each<[string, Parameters<Journal['entries']>[0], number[]]>([
    ['none', {}, [1, 2, 3, 4]],
    ['by path, the query aside', { path: '/api/v1/desk' }, [1, 2, 4]],
    ['by a path with its query: none', { path: '/api/v1/desk?page=1' }, []],
    ['by method, any case', { method: 'delete' }, [3]],
    ['by operationId', { operationId: 'listDesks' }, [1, 4]],
    ['after an id', { since: 2 }, [3, 4]],
    ['all at once', { path: '/api/v1/desk', operationId: 'listDesks', since: 1 }, [4]],
  ])('filtered: %s', (_name, filter, ids) => {
    const j = new Journal(10);
    j.record(entry(1, { operationId: 'listDesks' }));
    j.record(entry(2, { url: '/api/v1/desk' }));
    j.record(entry(3, { method: 'DELETE', url: '/api/v1/desk/3', operationId: 'destroyDesk' }));
    j.record(entry(4, { operationId: 'listDesks' }));
    expect(j.entries(filter).map((e) => e.id)).toEqual(ids);
  });

  it('texts kept exactly, a lone surrogate included; times and durations exactly', () => {
    const j = new Journal(2);
    j.record(entry(1, { url: '/a\ud800b', durationMs: 0.1 + 0.2, time: Date.UTC(1999, 11, 31, 23, 59, 59, 999) }));
    const [e] = j.entries();
    expect([e?.url, e?.durationMs, e?.time]).toEqual(['/a\ud800b', 0.30000000000000004, '1999-12-31T23:59:59.999Z']);
  });

  it.each<[string, string[]]>([
    ['ASCII', ['Host', 'localhost:4010', 'User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0']],
    ['Latin-1 past ASCII, as Node reads obs-text', ['X-Name', 'caf\u00e9 \u00ff\u0080']],
    ['a character past U+07FF among ASCII', ['X-Name', 'floor 4 \u2014 desk 401, by the window']],
    ['CJK, three UTF-8 bytes a character', ['X', '\u6771\u4eac'.repeat(5)]],
    ['a lone surrogate', ['X-Name', 'a\ud800b', 'X-Other', 'c']],
    ['U+FEFF first', ['\ufeffX-Name', '\ufeffvalue']],
    ['empty texts', ['X-Empty', '', 'X-Next', 'v']],
    ['none', []],
  ])('headers come back exactly: %s', (_name, headers) => {
    const j = new Journal(4);
    // Each entry after one with an odd count of body bytes.
    j.record(entry(1, { headers: () => ['X-Odd', '\u00e9a'], body: Uint8Array.of(0x61, 0x62, 0x63) }));
    j.record(entry(2, { headers: () => headers }));
    j.record(entry(3, { headers: () => headers, body: utf8('{"a":1}') }));
    const want = Object.fromEntries(
      Array.from({ length: headers.length / 2 }, (_, i) => [headers[2 * i]?.toLowerCase(), headers[2 * i + 1]]),
    );
    const [first, second, third] = j.entries();
    expect(first?.headers).toEqual({ 'x-odd': '\u00e9a' });
    expect(first?.body).toBe('abc');
    expect(second?.headers).toEqual(want);
    expect([third?.headers, third?.body, third?.url]).toEqual([want, '{"a":1}', '/api/v1/desk?page=3']);
  });
});

describe('an entry whose texts are the one before’s', () => {
  // A few texts each, so that runs of the same come often: a repeat keeps its texts by reference.
  const record = fc.record({
    method: fc.constantFrom('GET', 'POST', 'get'),
    url: fc.constantFrom('/api/v1/desk', '/api/v1/desk?page=2', '/a\ud800b'),
    headers: fc.constantFrom(['Host', 'localhost'], ['Host', 'localhost', 'Accept', 'text/html'], ['Host', 'localhos']),
    body: fc.option(fc.uint8Array({ maxLength: 8 }), { nil: undefined }),
    operationId: fc.constantFrom(undefined, 'desk_list'),
    scenario: fc.constantFrom(undefined, 'empty'),
    status: fc.constantFrom(200, 404),
    durationMs: fc.double({ noNaN: true }),
  });

  it('comes back as recorded, its body its own, whatever the runs and the segments turning', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), (records, capacity) => {
        const j = new Journal(capacity);
        const want = records.map((r, i) => {
          // Each text a new string, as a parser makes them: the same units, never the same value by identity.
          const copy = (t: string) => `${t} `.slice(0, -1);
          const headers = r.headers.map(copy);
          j.record(entry(i, { ...r, method: copy(r.method), url: copy(r.url), headers: () => headers }));
          return {
            id: i + 1,
            method: r.method,
            url: r.url,
            status: r.status,
            durationMs: r.durationMs,
            body: r.body?.length ? new TextDecoder().decode(r.body) : undefined,
            headers: Object.fromEntries(
              Array.from({ length: r.headers.length / 2 }, (_, k) => [
                (r.headers[2 * k] as string).toLowerCase(),
                r.headers[2 * k + 1],
              ]),
            ),
            operationId: r.operationId,
            scenario: r.scenario,
          };
        });
        const got = j.entries().map((e) => ({
          id: e.id,
          method: e.method,
          url: e.url,
          status: e.status,
          durationMs: e.durationMs,
          body: e.body,
          headers: e.headers,
          operationId: e.operationId,
          scenario: e.scenario,
        }));
        expect(got).toEqual(want.slice(-capacity));
      }),
      { numRuns: 400, seed: 29 },
    );
  });

  it('the same request again and again, the segments turning: each entry whole', () => {
    for (const capacity of [1, 2, 3, 5]) {
      const j = new Journal(capacity);
      for (let i = 0; i < 4 * capacity + 3; i++) j.record(entry(i, { url: '/same' }));
      const kept = j.entries();
      expect(kept.map((e) => [e.url, e.method, e.headers.host])).toEqual(
        Array.from({ length: capacity }, () => ['/same', 'GET', 'localhost:4010']),
      );
    }
  });

  it('keeps only its head and body: a hundred thousand same requests fit where a fifth as many others do', () => {
    const same = new Journal(100_000);
    for (let i = 0; i < 100_000; i++) same.record(entry(i, { url: '/api/v1/desk?page=1' }));
    const kept = same.entries();
    expect(kept).toHaveLength(100_000);
    expect(kept.every((e) => e.url === '/api/v1/desk?page=1' && e.headers.host === 'localhost:4010')).toBe(true);
    // Written out each time, the same texts fill the largest segment before then.
    const different = new Journal(100_000);
    for (let i = 0; i < 100_000; i++) different.record(entry(i));
    expect(different.entries().length).toBeLessThan(50_000);
  });
});
