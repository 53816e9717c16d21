import { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse, STATUS_CODES } from 'node:http';
import type { CoreAnswer, CoreRequest } from '../core/answer.js';
import { withMembers } from '../core/members.js';

/**
 * DATA_UPLOAD_MAX_MEMORY_SIZE, Django's default bound on a request body it reads (2.5 MiB): a
 * bigger one is RequestDataTooBig, Django's 400 page, and is never read whole.
 */
export const MAX_BODY_BYTES = 2_621_440;

/** A request as the core sees it: its target as sent, Node's headers by lower-case name (presence kept). */
export function coreRequest(req: IncomingMessage, url: string, body?: Uint8Array): CoreRequest {
  const headers = req.headers;
  // The journal keeps this function: it holds the header array alone, never the request (its
  // socket and streams would stay alive with every entry kept).
  const raw = req.rawHeaders;
  return {
    method: req.method ?? 'GET',
    url,
    header: (name) => {
      const v = headers[name];
      return Array.isArray(v) ? v.join(', ') : v;
    },
    body,
    // For the journal, read only when it is: the headers as they came, in pairs.
    headers: () => raw,
  };
}

/** The headers an answer is written with: the core's, and its length (in bytes: a text's as UTF-8). */
export function outgoingHeaders(answer: Pick<CoreAnswer, 'headers'>, body: Buffer | string): Record<string, string> {
  return withMembers(answer.headers, {
    'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.length),
  });
}

/** Writes an answer (a text as UTF-8); HEAD gets GET's headers and no body, as Django's WSGI servers send it. */
export function writeAnswer(
  res: ServerResponse,
  method: string | undefined,
  status: number,
  headers: OutgoingHttpHeaders,
  body: Buffer | string,
): void {
  res.writeHead(status, headers);
  res.end(method === 'HEAD' || status === 204 || status === 304 ? undefined : body);
}

/** A whole HTTP/1.1 answer for a socket the parser gave up on (or a CONNECT), then closed. */
export function rawAnswer(answer: CoreAnswer, method: string): string {
  const body = method === 'HEAD' ? '' : answer.body;
  // The reason phrase Node's own server writes for the same status.
  const reason = STATUS_CODES[answer.status] ?? 'Unknown';
  // Written to the socket by hand, so checked here as Node's setHeader checks: a value with a
  // control character (a request byte echoed, CR or LF above all) is left out, never sent.
  const headers = Object.entries(withMembers(outgoingHeaders(answer, answer.body), { connection: 'close' }))
    .filter(([k, v]) => /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(k) && !/[\x00-\x08\x0a-\x1f\x7f]/.test(v))
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  return `HTTP/1.1 ${answer.status} ${reason}\r\n${headers}\r\n\r\n${body}`;
}

/**
 * A request Node's HTTP parser refused, read from its raw bytes where it can be: a method Node does
 * not know (`FOO /api/v1/desk HTTP/1.1`) is still a request Django would answer (405 on a routed
 * path). Answers undefined when the bytes are not a request line and headers.
 */
export function parseRawRequest(
  packet: Buffer | undefined,
): { method: string; url: string; headers: Map<string, string> } | undefined {
  if (!packet) return undefined;
  const text = packet.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [line, ...rest] = text.slice(0, end).split('\r\n');
  const m = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) (\S+) HTTP\/1\.[01]$/.exec(line ?? '');
  if (!m) return undefined;
  const headers = new Map<string, string>();
  for (const h of rest) {
    const i = h.indexOf(':');
    if (i <= 0) return undefined;
    const name = h.slice(0, i).trim().toLowerCase();
    const value = h.slice(i + 1).trim();
    headers.set(
      name,
      headers.has(name) && name !== 'host' ? `${headers.get(name)}, ${value}` : (headers.get(name) ?? value),
    );
  }
  return { method: m[1] as string, url: m[2] as string, headers };
}
