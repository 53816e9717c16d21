import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { djangoPage, type StubCore } from '../core/answer.js';
import { DJANGO_ERRORS, FRONT_PAGES, frontPage } from '../core/errors.js';
import { coreRequest, parseRawRequest, rawAnswer } from './node-adapter.js';

/**
 * What Node hands over without a request for Fastify to route, answered as Django would and
 * closed. A request Node's parser refused comes to Fastify's `clientErrorHandler` as a socket and
 * its bytes: a method Node does not know (`FOO`) or raw 8-bit bytes in the target are still
 * requests a WSGI server hands to Django, so they are read from their bytes and answered by the
 * core; a header section too large is the 431 Django's servers answer, anything else Django's 400.
 */
export function answerRefused(core: () => StubCore): (error: Error, socket: Socket) => void {
  return (error, socket) => {
    const err = error as Error & { code?: string; rawPacket?: unknown };
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const raw =
      (err.code === 'HPE_INVALID_METHOD' || err.code === 'HPE_INVALID_URL') && Buffer.isBuffer(err.rawPacket)
        ? parseRawRequest(err.rawPacket)
        : undefined;
    const answer = raw
      ? core().answer({ method: raw.method, url: raw.url, header: (n) => raw.headers.get(n) })
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? frontPage(FRONT_PAGES.HEADER_FIELDS_TOO_LARGE)
        : djangoPage(DJANGO_ERRORS.BAD_REQUEST);
    void Promise.resolve(answer).then((a) => socket.end(rawAnswer(a, raw?.method ?? 'GET')));
  };
}

/**
 * CONNECT: Node gives its socket to the server's 'connect' event, never to the request listener
 * Fastify routes from (the connection becomes a tunnel, and no response object is made for it).
 * The core answers it (Django would: a 405 on a route, a 404 elsewhere), and the socket is closed.
 */
export function answerConnect(core: () => StubCore): (req: IncomingMessage, socket: Socket) => void {
  return (req, socket) => {
    void Promise.resolve(core().answer(coreRequest(req, req.url ?? '/'))).then((a) =>
      socket.end(rawAnswer(a, 'CONNECT')),
    );
  };
}
