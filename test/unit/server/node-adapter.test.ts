import { describe, expect, it } from 'vitest';
import { parseRawRequest, rawAnswer } from '../../../src/server/node-adapter.js';

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
