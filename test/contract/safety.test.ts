import { describe, expect, it } from 'vitest';
import { nestingDepth, parseJson } from '../../src/contract/json.js';
import { BaseRewriter } from '../../src/contract/proxy/rewrite.js';
import { Redactor, REDACTED, secretsOfHeader } from '../../src/contract/redact.js';
import { printable } from '../../src/contract/safe-text.js';
import { BaseScope } from '../../src/contract/scope.js';

const SECRET = 'Token s3cr"e\\t/ü+x y';
const CORE = 's3cr"e\\t/ü+x y';

describe('redaction: every encoding, before any clipping', () => {
  const redactor = Redactor.forHeaders({
    authorization: SECRET,
    'x-api-key': 'key-0123456789',
    accept: 'application/json',
  });
  const forms: [string, string][] = [
    ['raw', CORE],
    ['JSON-escaped', JSON.stringify(CORE).slice(1, -1)],
    ['JSON with \\uXXXX', JSON.stringify(CORE).slice(1, -1).replace('ü', '\\u00fc')],
    ['URL-encoded', encodeURIComponent(CORE)],
    ['URL-encoded, lower-case hex', encodeURIComponent(CORE).toLowerCase()],
    ['quote_plus', encodeURIComponent(CORE).replaceAll('%20', '+')],
    ['HTML-escaped', CORE.replace('"', '&quot;')],
    ['base64', Buffer.from(SECRET).toString('base64')],
    ['the whole header value', SECRET],
  ];
  it.each(forms)('%s', (_name, form) => {
    const text = `before ${form} after`;
    expect(redactor.redact(text)).toBe(`before ${REDACTED} after`);
  });

  it('a Basic credential: the base64, the decoded user:password and the password alone', () => {
    const basic = `Basic ${Buffer.from('qa-user:pa55w0rd!').toString('base64')}`;
    expect(secretsOfHeader(basic)).toEqual(expect.arrayContaining(['qa-user:pa55w0rd!', 'pa55w0rd!']));
    const r = Redactor.forHeaders({ authorization: basic });
    for (const form of [
      'qa-user:pa55w0rd!',
      'pa55w0rd!',
      Buffer.from('qa-user:pa55w0rd!').toString('base64'),
      encodeURIComponent('pa55w0rd!'),
    ]) {
      expect(r.redact(`x${form}x`)).toBe(`x${REDACTED}x`);
    }
  });

  it('cookie values are secrets; headers that carry none are left alone', () => {
    const r = Redactor.forHeaders({ cookie: 'sessionid=abcd1234efgh; csrftoken=zyxw9876', accept: 'application/json' });
    expect(r.redact('sessionid abcd1234efgh csrftoken zyxw9876')).toBe(`sessionid ${REDACTED} csrftoken ${REDACTED}`);
    expect(r.redact('application/json')).toBe('application/json');
  });

  it('clipping never shows part of a secret, wherever the cut falls', () => {
    // Any piece of the secret longer than two characters starts with "s3c".
    for (const form of [CORE, JSON.stringify(CORE).slice(1, -1), encodeURIComponent(CORE)]) {
      for (let pad = 0; pad < 80; pad++) {
        const text = `${'x'.repeat(pad)}${form}${'y'.repeat(100)}`;
        for (const max of [10, 20, 40, 60, 79])
          expect(redactor.safe(text, max), `pad ${pad}, max ${max}`).not.toMatch(/s3c/i);
      }
    }
  });
});

describe('redaction: base64 and base64url of a secret inside a longer value, at every alignment', () => {
  // Bytes whose base64 holds '+' and '/' (base64url: '-' and '_').
  const token = 'k>?~s3cr>t?~v9';
  const r = Redactor.forHeaders({ authorization: `Token ${token}` });
  const cases: [string, string, string, string][] = [];
  for (const before of ['', 't', 'to', 'tok=', 'token=', '{"a":1,"tok":"'])
    for (const after of ['', '"', '";x', '&y=1'])
      for (const encoding of ['base64', 'base64url'] as const)
        cases.push([encoding, before, after, Buffer.from(`${before}${token}${after}`).toString(encoding)]);

  it.each(cases)('%s of %j + token + %j', (_encoding, before, _after, encoded) => {
    const out = r.redact(`value=${encoded};`);
    expect(out).toContain(REDACTED);
    // No four characters that the token's bytes alone decide are left.
    const start = Math.ceil((before.length * 8) / 6);
    const end = Math.floor(((before.length + token.length) * 8) / 6);
    const tokenChars = encoded.slice(start, end);
    for (let i = 0; i + 4 <= tokenChars.length; i++) expect(out).not.toContain(tokenChars.slice(i, i + 4));
  });
});

describe('control characters never reach a terminal', () => {
  it.each([
    ['ESC (CSI, clear screen)', '\u001b[2J'],
    ['OSC 8 hyperlink with BEL', '\u001b]8;;http://evil\u0007x\u001b]8;;\u0007'],
    ['C1 CSI', '\u009b31m'],
    ['bidi override', 'a\u202eb'],
    ['line breaks that forge report lines', 'x\n✓ GET /api/v1/desk\r'],
    ['NUL and DEL', '\u0000\u007f'],
  ])('%s', (_name, text) => {
    const out = printable(text);
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });
});

describe('JSON with a depth limit', () => {
  it('refuses 100,000 levels without recursion, and reads ordinary JSON', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(nestingDepth(deep, 256)).toBe(257);
    expect(parseJson(deep)).toEqual({ ok: false, reason: 'JSON nested deeper than 256 levels' });
    expect(parseJson('{"a":"[[[[{{{{","b":[1,{"c":2}]}')).toEqual({
      ok: true,
      value: { a: '[[[[{{{{', b: [1, { c: 2 }] },
    });
    expect(parseJson('{"a":"\\"[[["}')).toEqual({ ok: true, value: { a: '"[[[' } });
    expect(parseJson('{"count":0,')).toMatchObject({ ok: false });
  });
});

describe('links are resolved before they are compared with the base', () => {
  const scope = new BaseScope('http://127.0.0.1:8000/prefix/');
  it.each([
    ['http://127.0.0.1:8000/prefix/api/v1/desk?page=2', true],
    ['http://127.0.0.1:8000/prefix', true],
    ['http://127.0.0.1:8000/prefix/../api/v1/desk', false],
    ['http://127.0.0.1:8000/prefix/%2e%2e/admin', false],
    ['http://127.0.0.1:8000/prefix/api/./v1/../../../x', false],
    ['http://127.0.0.1:8000/prefixed/api/v1/desk', false],
    ['http://127.0.0.1:8001/prefix/api/v1/desk', false],
    ['https://127.0.0.1:8000/prefix/api/v1/desk', false],
    ['http://user:pw@127.0.0.1:8000/prefix/api/v1/desk', false],
    ['http://127.0.0.1:8000@evil.example/prefix/api', false],
    ['/prefix/api/v1/desk', false],
    ['//127.0.0.1:8000/prefix/api/v1/desk', false],
    // What a server in front may read as leaving the prefix, though WHATWG URL keeps it under.
    ['http://127.0.0.1:8000/prefix/..%2Fother%2Fsteal', false],
    ['http://127.0.0.1:8000/prefix/..%2fadmin', false],
    ['http://127.0.0.1:8000/prefix/api/v1/desk/a%2Fb', false],
    ['http://127.0.0.1:8000/prefix/..%5Cadmin', false],
    ['http://127.0.0.1:8000/prefix/..;/admin', false],
    ['http://127.0.0.1:8000/prefix/api/.;/x', false],
    ['http://127.0.0.1:8000/prefix/..%3B/admin', false],
    ['http://127.0.0.1:8000/prefix/%2e%2e;x/admin', false],
    ['http://127.0.0.1:8000/prefix/%252e%252e/admin', false],
    ['http://127.0.0.1:8000/prefix/..%252Fadmin', false],
    ['http://127.0.0.1:8000/prefix/api/v1/desk;x=1', true],
    ['http://127.0.0.1:8000/prefix/api/v1/desk/a;b', true],
    ['http://127.0.0.1:8000/prefix/api/v1/desk/...', true],
    ['http://127.0.0.1:8000/prefix/api/v1/desk/50%25off', true],
    ['http://127.0.0.1:8000/prefix/api/v1/desk/%zz', true],
  ])('%s on the base: %s', (link, on) => {
    expect(scope.holdsLink(link)).toBe(on);
  });
});

describe('a base without a prefix: every path of its origin is on it', () => {
  it.each(['http://h/..%2Fadmin', 'http://h/..;/admin', 'http://h/api/v1/desk'])('%s', (link) => {
    expect(new BaseScope('http://h').holdsLink(link)).toBe(true);
  });
});

describe('the proxy rewrites a base only where it ends', () => {
  const r = new BaseRewriter('http://127.0.0.1:80', 'http://proxy:1');
  it.each([
    ['{"url":"http://127.0.0.1:80/api/v1/desk/1"}', '{"url":"http://proxy:1/api/v1/desk/1"}'],
    ['{"url":"http:\\/\\/127.0.0.1:80\\/api"}', '{"url":"http:\\/\\/proxy:1\\/api"}'],
    ['http://127.0.0.1:8000/api', 'http://127.0.0.1:8000/api'],
    ['<http://127.0.0.1:80/api?page=2>; rel="next"', '<http://proxy:1/api?page=2>; rel="next"'],
    ['http://127.0.0.1:80', 'http://proxy:1'],
  ])('%s', (input, output) => {
    expect(r.rewrite(input)).toBe(output);
  });
});
