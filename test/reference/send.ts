// Sends one corpus request exactly as written: method, raw path, explicit headers (Host included or
// left out), body. node:http where it accepts the request; a raw socket where node refuses a header.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface WireRequest {
  method: string;
  /** Path and query exactly as sent on the request line (already percent-encoded where needed). */
  path: string;
  /** Headers in order; `host` only when listed (no Host at all when absent). */
  headers: [string, string][];
  body?: string;
  /** Send through a raw socket (bytes as given, UTF-8), e.g. a header value node refuses. */
  raw?: boolean;
}

export interface Answer {
  status: number;
  /** Header names lower-cased; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: string;
  /** Set when no answer came (connection error, time-out); status is 0 then. */
  error?: string;
}

export interface SendOptions {
  timeoutMs?: number;
}

function viaHttp(origin: URL, req: WireRequest, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of req.headers) headers[k] = v;
    const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
    if (body && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length'))
      headers['content-length'] = String(body.length);
    let done = false;
    const finish = (a: Answer) => {
      if (!done) {
        done = true;
        resolve(a);
      }
    };
    let r: ReturnType<typeof httpRequest>;
    try {
      r = httpRequest({
        host: origin.hostname,
        port: origin.port,
        method: req.method,
        path: req.path,
        headers,
        setHost: false,
        agent: false,
        timeout: timeoutMs,
      });
    } catch (e) {
      finish({ status: 0, headers: {}, body: '', error: `node refused the request: ${(e as Error).message}` });
      return;
    }
    r.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const k = (res.rawHeaders[i] ?? '').toLowerCase();
          const v = res.rawHeaders[i + 1] ?? '';
          h[k] = k in h ? `${h[k]}, ${v}` : v;
        }
        finish({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (e) => finish({ status: 0, headers: {}, body: '', error: e.message }));
    });
    r.on('timeout', () => {
      r.destroy();
      finish({ status: 0, headers: {}, body: '', error: `time-out after ${timeoutMs} ms` });
    });
    r.on('error', (e) => finish({ status: 0, headers: {}, body: '', error: e.message }));
    r.end(body);
  });
}

/** A minimal HTTP/1.x client on a socket: the request bytes exactly as given, the answer read to the close. */
function viaSocket(origin: URL, req: WireRequest, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const body = req.body === undefined ? Buffer.alloc(0) : Buffer.from(req.body, 'utf8');
    const lines = [`${req.method} ${req.path} HTTP/1.1`];
    for (const [k, v] of req.headers) lines.push(`${k}: ${v}`);
    if (!req.headers.some(([k]) => k.toLowerCase() === 'connection')) lines.push('Connection: close');
    if (body.length && !req.headers.some(([k]) => k.toLowerCase() === 'content-length'))
      lines.push(`Content-Length: ${body.length}`);
    const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
    const socket = connect({ host: origin.hostname, port: Number(origin.port) });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (a: Answer) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(a);
    };
    socket.setTimeout(timeoutMs, () =>
      finish({ status: 0, headers: {}, body: '', error: `time-out after ${timeoutMs} ms` }),
    );
    socket.on('connect', () => socket.write(Buffer.concat([head, body])));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e) => finish({ status: 0, headers: {}, body: '', error: e.message }));
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0)
        return finish({ status: 0, headers: {}, body: '', error: `no complete answer (${all.length} bytes)` });
      const [statusLine = '', ...headerLines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const m = /^HTTP\/\d\.\d (\d{3})/.exec(statusLine);
      const h: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const k = line.slice(0, i).trim().toLowerCase();
        const v = line.slice(i + 1).trim();
        h[k] = k in h ? `${h[k]}, ${v}` : v;
      }
      let rest: Buffer = all.subarray(end + 4);
      if (req.method === 'HEAD') rest = Buffer.alloc(0);
      else if (/chunked/i.test(h['transfer-encoding'] ?? '')) rest = dechunk(rest);
      else if (h['content-length'] !== undefined) rest = rest.subarray(0, Number(h['content-length']));
      finish({
        status: m ? Number(m[1]) : 0,
        headers: h,
        body: rest.toString('utf8'),
        ...(m ? {} : { error: `bad status line ${JSON.stringify(statusLine)}` }),
      });
    });
  });
}

function dechunk(buf: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < buf.length) {
    const eol = buf.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(i, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(buf.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** Sends one request to the server at `base` (its origin; the request's path is taken as written). */
export async function send(base: string, req: WireRequest, opts: SendOptions = {}): Promise<Answer> {
  const origin = new URL(base);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  // node:http keeps one value per header name: a request that repeats a header goes through the socket.
  const names = req.headers.map(([k]) => k.toLowerCase());
  if (req.raw || new Set(names).size !== names.length) return viaSocket(origin, req, timeoutMs);
  const answer = await viaHttp(origin, req, timeoutMs);
  // node refuses some headers and methods (ERR_INVALID_CHAR, ERR_INVALID_HTTP_TOKEN): send those raw.
  if (answer.error?.startsWith('node refused')) return viaSocket(origin, req, timeoutMs);
  return answer;
}

/** Runs `fn` over `items` with at most `limit` at once, keeping the order of results. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      results[i] = await fn(items[i] as T, i);
    }
  });
  await Promise.all(workers);
  return results;
}
