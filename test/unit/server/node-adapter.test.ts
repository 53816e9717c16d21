import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  coreRequest,
  MAX_BODY_BYTES,
  outgoingHeaders,
  parseRawRequest,
  rawAnswer,
  writeAnswer,
} from '../../../src/server/node-adapter.js';

describe('coreRequest: a Node request as the core sees it', () => {
  it('its target as given, headers by name (repeated ones joined), the raw pairs for the journal', () => {
    const rawHeaders = ['Host', 'stub.test', 'X-A', '1', 'X-A', '2'];
    const req = {
      method: 'PATCH',
      headers: { host: 'stub.test', 'x-a': ['1', '2'], empty: '' },
      rawHeaders,
    } as unknown as IncomingMessage;
    const body = new Uint8Array([1, 2]);
    const r = coreRequest(req, '/api/v1/d%65sk?x=1', body);
    expect([r.method, r.url, r.body]).toEqual(['PATCH', '/api/v1/d%65sk?x=1', body]);
    expect([r.header('host'), r.header('x-a'), r.header('empty'), r.header('nope')]).toEqual([
      'stub.test',
      '1, 2',
      '',
      undefined,
    ]);
    expect(r.headers?.()).toBe(rawHeaders);
    expect(coreRequest({ headers: {}, rawHeaders: [] } as unknown as IncomingMessage, '/').method).toBe('GET');
  });
});

describe('outgoingHeaders and writeAnswer', () => {
  it('Content-Length is the body’s length in bytes, a text’s as UTF-8', () => {
    const answer = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'é' };
    expect(outgoingHeaders(answer, 'é')).toEqual({ 'content-type': 'text/plain', 'content-length': '2' });
    expect(outgoingHeaders(answer, Buffer.from('abc'))['content-length']).toBe('3');
  });

  it.each<[string, string | undefined, number, boolean]>([
    ['GET with its body', 'GET', 200, true],
    ['HEAD: the headers alone', 'HEAD', 200, false],
    ['204 carries no body', 'DELETE', 204, false],
    ['304 carries no body', 'GET', 304, false],
    ['an unknown method', undefined, 200, true],
  ])('%s', (_name, method, status, sent) => {
    const calls: unknown[][] = [];
    const res = {
      writeHead: (...a: unknown[]) => calls.push(['head', ...a]),
      end: (b: unknown) => calls.push(['end', b]),
    } as unknown as ServerResponse;
    writeAnswer(res, method, status, { 'content-length': '2' }, 'ok');
    expect(calls).toEqual([
      ['head', status, { 'content-length': '2' }],
      ['end', sent ? 'ok' : undefined],
    ]);
  });

  it("Django's DATA_UPLOAD_MAX_MEMORY_SIZE bounds a body: 2.5 MiB", () => {
    expect(MAX_BODY_BYTES).toBe(2.5 * 2 ** 20);
  });
});

describe('parseRawRequest: a request Node refused, read from its bytes', () => {
  it.each<[string, string | undefined, ReturnType<typeof parseRawRequest>]>([
    ['nothing', undefined, undefined],
    ['no end of the header section', 'FOO / HTTP/1.1\r\nHost: a\r\n', undefined],
    ['not a request line', 'FOO /\r\n\r\n', undefined],
    ['HTTP/2 is not HTTP/1.x', 'FOO / HTTP/2.0\r\n\r\n', undefined],
    ['a header without a colon', 'FOO / HTTP/1.1\r\nbroken\r\n\r\n', undefined],
    [
      'a method Node does not know, headers by lower-case name',
      'FOO /api/v1/desk?a=1 HTTP/1.0\r\nHost: a\r\nX-A:  1 \r\nx-a: 2\r\nHOST: b\r\n\r\nbody',
      {
        method: 'FOO',
        url: '/api/v1/desk?a=1',
        headers: new Map([
          ['host', 'a'],
          ['x-a', '1, 2'],
        ]),
      },
    ],
  ])('%s', (_name, text, want) => {
    expect(parseRawRequest(text === undefined ? undefined : Buffer.from(text, 'latin1'))).toEqual(want);
  });
});

describe('rawAnswer: its status line', () => {
  it.each<[number, string, string, string]>([
    [405, 'GET', 'HTTP/1.1 405 Method Not Allowed', 'x'],
    [431, 'GET', 'HTTP/1.1 431 Request Header Fields Too Large', 'x'],
    // As Node's server writes the status line of any other answer (a CONNECT refused 401 was `Unknown`).
    [401, 'GET', 'HTTP/1.1 401 Unauthorized', 'x'],
    [418, 'GET', "HTTP/1.1 418 I'm a Teapot", 'x'],
    [599, 'GET', 'HTTP/1.1 599 Unknown', 'x'],
    [200, 'HEAD', 'HTTP/1.1 200 OK', ''],
  ])('%d to %s: %s', (status, method, line, body) => {
    const text = rawAnswer({ status, headers: {}, body: 'x' }, method);
    expect(text).toBe(`${line}\r\ncontent-length: 1\r\nconnection: close\r\n\r\n${body}`);
  });
});

describe('rawAnswer: an answer written to a socket by hand', () => {
  const answer = (headers: Record<string, string>) => ({ status: 405, headers, body: '{"detail":"x"}' });

  it.each<[string, Record<string, string>, string[]]>([
    ['plain headers pass', { allow: 'GET', vary: 'Accept, Cookie' }, ['allow: GET', 'vary: Accept, Cookie']],
    ['a value with LF is left out', { location: '/a\nSet-Cookie: x=1', allow: 'GET' }, ['allow: GET']],
    ['a value with CR is left out', { 'access-control-allow-origin': 'http://localhost\r' }, []],
    ['a value with another control byte is left out', { location: '/a\u0001' }, []],
    ['a name that is no token is left out', { 'x bad': 'v', 'x-good': 'v' }, ['x-good: v']],
    ['a tab in a value is allowed (RFC 9110 field-vchar and HTAB)', { 'x-t': 'a\tb' }, ['x-t: a\tb']],
  ])('%s', (_name, headers, want) => {
    const text = rawAnswer(answer(headers), 'GET');
    const lines = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n').slice(1);
    expect(lines).toEqual([...want, 'content-length: 14', 'connection: close']);
    // Nothing but CRLF ends a line: no header was split in two.
    expect(text.slice(0, text.indexOf('\r\n\r\n')).replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('a request read from its bytes keeps a lone LF inside a value; the answer never echoes it', () => {
    const raw = parseRawRequest(
      Buffer.from('FOO /x HTTP/1.1\r\nOrigin: http://localhost:4\nX-Evil: 1\r\n\r\n', 'latin1'),
    );
    expect(raw?.headers.get('origin')).toBe('http://localhost:4\nX-Evil: 1');
    const text = rawAnswer(answer({ 'access-control-allow-origin': raw?.headers.get('origin') ?? '' }), 'FOO');
    expect(text).not.toContain('X-Evil');
  });
});
