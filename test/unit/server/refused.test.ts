import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { answerConnect, answerRefused } from '../../../src/server/refused.js';
import { StubCore } from '../../../src/core/answer.js';
import { LOOPBACK_CORS } from '../../../src/core/stub/cors.js';
import { fixtureState } from './state-fixtures.js';

// The core alone (test/helpers.ts's coreOf would import the app, and Fastify with it).
const core = new StubCore((await fixtureState('mini')).model, {
  pageSize: 100,
  trustProxy: false,
  allowedHosts: ['*'],
  fallbackHost: '127.0.0.1:4010',
  maxDelayMs: 0,
  cors: LOOPBACK_CORS,
});

/** A socket that notes what it was sent, and whether it was destroyed. */
function socket(writable = true) {
  let sent: string | undefined;
  let destroyed = false;
  const s = {
    writable,
    end: (text: string) => void (sent = text),
    destroy: () => void (destroyed = true),
  } as unknown as Socket;
  const ended = async () => {
    for (let i = 0; i < 20 && sent === undefined && !destroyed; i++) await new Promise((r) => setImmediate(r));
    return { sent, destroyed };
  };
  return { s, ended };
}
const refused = (code: string, raw?: string) =>
  Object.assign(new Error(code), { code, rawPacket: raw === undefined ? undefined : Buffer.from(raw, 'latin1') });
const statusLine = (text: string | undefined) => text?.split('\r\n')[0];

describe('answerRefused: what Node’s parser gave up on, answered as Django would, then closed', () => {
  it.each<[string, Error, string, RegExp]>([
    [
      'a method Node does not know, on a routed path: the core’s 405',
      refused('HPE_INVALID_METHOD', 'FOO /api/v1/stored HTTP/1.1\r\nHost: stub.test\r\n\r\n'),
      'HTTP/1.1 405 Method Not Allowed',
      /"detail":"Method \\"FOO\\" not allowed\."/,
    ],
    [
      '8-bit bytes in the target: the core’s 404',
      refused('HPE_INVALID_URL', 'GET /api/v1/st\xe9 HTTP/1.1\r\nHost: stub.test\r\n\r\n'),
      'HTTP/1.1 404 Not Found',
      /Not Found/,
    ],
    [
      'a header section too large: 431',
      refused('HPE_HEADER_OVERFLOW'),
      'HTTP/1.1 431 Request Header Fields Too Large',
      /<h1>Request Header Fields Too Large \(431\)<\/h1>$/,
    ],
    ['anything else: Django’s 400 page', refused('HPE_INVALID_CONSTANT'), 'HTTP/1.1 400 Bad Request', /Bad Request/],
    [
      'an unknown method whose bytes are no request: 400',
      refused('HPE_INVALID_METHOD', 'garbage'),
      'HTTP/1.1 400 Bad Request',
      /Bad Request/,
    ],
  ])('%s', async (_name, error, line, body) => {
    const { s, ended } = socket();
    answerRefused(() => core)(error, s);
    const { sent } = await ended();
    expect(statusLine(sent)).toBe(line);
    expect(sent).toContain('\r\nconnection: close\r\n');
    expect(sent).toMatch(body);
  });

  it('a socket that cannot be written is destroyed', async () => {
    const { s, ended } = socket(false);
    answerRefused(() => core)(refused('HPE_INVALID_CONSTANT'), s);
    expect(await ended()).toEqual({ sent: undefined, destroyed: true });
  });
});

describe('answerConnect: CONNECT answered by the core, then closed', () => {
  it.each<[string, string]>([
    ['/api/v1/stored', 'HTTP/1.1 405 Method Not Allowed'],
    ['/nowhere', 'HTTP/1.1 404 Not Found'],
  ])('%s: %s', async (url, line) => {
    const { s, ended } = socket();
    const req = {
      method: 'CONNECT',
      url,
      headers: { host: 'stub.test' },
      rawHeaders: ['Host', 'stub.test'],
    } as unknown as IncomingMessage;
    answerConnect(() => core)(req, s);
    expect(statusLine((await ended()).sent)).toBe(line);
  });
});
