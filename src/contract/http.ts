import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { BaseScope } from './scope.js';
import { count } from './words.js';

/** The default of `--max-body`: a page of 100 desks is about 20 KB; 16 MiB is far above any real page. */
export const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

/** One answer, read whole (bounded). */
export interface Answer {
  readonly ok: true;
  readonly status: number;
  /** Response headers, names lower-case (set-cookie an array, as node:http gives them). */
  readonly headers: IncomingHttpHeaders;
  readonly contentType: string;
  /** The body, decompressed. */
  readonly body: Buffer;
  readonly text: string;
  readonly ms: number;
}

/** A request that got no usable answer: never thrown, a value to report. */
export interface Failure {
  readonly ok: false;
  readonly error: string;
  /** `TIMEOUT`, `TOO_LARGE`, `BAD_ENCODING`, or Node's code (`ECONNREFUSED`, `HPE_INVALID_CONSTANT`, …). */
  readonly code: string;
  readonly ms: number;
}

export type Fetched = Answer | Failure;

/** Codes that mean nothing answers at that address at all (exit 2), not a broken deployment. */
export const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
]);

export interface SendOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string | string[]>>;
  readonly body?: Buffer;
  readonly timeoutMs: number;
  /** Most bytes read, on the wire and again after decompression. */
  readonly maxBody: number;
  readonly agent?: http.Agent;
}

/** One header as a single string (repeated headers joined as HTTP allows). */
export function headerText(headers: IncomingHttpHeaders, name: string): string {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

function decoder(encoding: string): Transform | undefined {
  // Flush on truncated input rather than wait: a deployment that stops mid-stream is reported, not awaited.
  const opts = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(opts);
    case 'deflate':
      return deflateDecoder(opts);
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}

/**
 * `deflate`: servers send it zlib-wrapped (RFC 9110) or raw (as some always have); the first
 * byte tells which, as browsers and undici tell it (a zlib header's method nibble is 8).
 */
function deflateDecoder(opts: zlib.ZlibOptions): Transform {
  let inner: Transform | undefined;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (inner === undefined) {
        inner = ((chunk[0] ?? 0) & 0x0f) === 0x08 ? zlib.createInflate(opts) : zlib.createInflateRaw(opts);
        inner.on('data', (d: Buffer) => this.push(d));
        inner.on('error', (e) => this.destroy(e));
      }
      inner.write(chunk, done);
    },
    flush(done) {
      if (inner === undefined) return done();
      inner.once('end', () => done());
      inner.end();
    },
  });
}

/**
 * One HTTP request over node:http, its answer read whole but never more than `maxBody` bytes on
 * the wire nor after decompression (a gzip or brotli bomb is cut at the limit, not inflated),
 * within `timeoutMs` from start to the last byte. Never throws. node:http rather than fetch:
 * fetch decompresses by itself (the compressed size cannot be bounded apart from the inflated
 * one), refuses some ports, and cannot set `Host` (the proxy sets it for its upstream).
 */
export function send(url: string | URL, opts: SendOptions): Promise<Fetched> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise<Fetched>((resolve) => {
    let settled = false;
    let req: http.ClientRequest | undefined;
    let res: IncomingMessage | undefined;
    const streams: Transform[] = [];
    const finish = (result: Fetched) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const fail = (code: string, error: string) => {
      finish({ ok: false, code, error, ms: ms() });
      for (const s of streams) s.destroy();
      res?.destroy();
      req?.destroy();
    };
    const timer = setTimeout(() => fail('TIMEOUT', `no answer within ${opts.timeoutMs} ms`), opts.timeoutMs);
    let target: URL;
    try {
      target = typeof url === 'string' ? new URL(url) : url;
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw Object.assign(new Error(`not an http(s) URL: ${target.protocol}`), { code: 'ERR_INVALID_URL' });
      const mod = target.protocol === 'https:' ? https : http;
      req = mod.request(target, {
        method: opts.method ?? 'GET',
        headers: opts.headers as http.OutgoingHttpHeaders,
        agent: opts.agent,
      });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      fail(err.code ?? 'ERR_REQUEST', err.message);
      return;
    }
    req.on('error', (e: NodeJS.ErrnoException) =>
      fail(e.code ?? 'ERR_REQUEST', `${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`),
    );
    req.on('response', (response) => {
      res = response;
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBody) {
        fail('TOO_LARGE', `the answer declares ${count(declared, 'byte')}, more than --max-body ${opts.maxBody}`);
        return;
      }
      const encodings = headerText(response.headers, 'content-encoding')
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter((e) => e !== '' && e !== 'identity');
      if (encodings.length > 3) {
        fail('BAD_ENCODING', `${encodings.length} content encodings stacked`);
        return;
      }
      let tail: NodeJS.ReadableStream = response;
      for (const enc of encodings.reverse()) {
        const d = decoder(enc);
        if (!d) {
          fail('BAD_ENCODING', `unknown Content-Encoding "${enc}"`);
          return;
        }
        d.on('error', (e) => fail('BAD_ENCODING', `the ${enc} body cannot be decoded: ${e.message}`));
        streams.push(d);
        tail = tail.pipe(d);
      }
      let raw = 0;
      response.on('data', (chunk: Buffer) => {
        raw += chunk.length;
        if (raw > opts.maxBody)
          fail('TOO_LARGE', `the answer is larger than --max-body ${count(opts.maxBody, 'byte')}`);
      });
      response.on('error', (e: NodeJS.ErrnoException) => fail(e.code ?? 'ERR_RESPONSE', e.message));
      response.on('aborted', () => fail('ECONNRESET', 'the connection closed before the answer ended'));
      const chunks: Buffer[] = [];
      let size = 0;
      tail.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBody) {
          fail('TOO_LARGE', `the answer decompresses to more than --max-body ${count(opts.maxBody, 'byte')}`);
          return;
        }
        if (!settled) chunks.push(chunk);
      });
      tail.on('end', () => {
        const body = Buffer.concat(chunks);
        finish({
          ok: true,
          status: response.statusCode ?? 0,
          headers: response.headers,
          contentType: headerText(response.headers, 'content-type'),
          body,
          text: new TextDecoder().decode(body),
          ms: ms(),
        });
      });
    });
    req.end(opts.body);
  });
}

export interface ClientOptions {
  readonly scope: BaseScope;
  /** Sent with every request on the scope, never off it. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxBody: number;
  readonly concurrency: number;
}

/**
 * What the checker accepts: JSON first, then anything. DRF negotiates `?format=` before `Accept`:
 * `format=api` selects the browsable renderer (text/html), so a bare `Accept: application/json`
 * is 406 there; the fallback to any type lets the deployment answer as it would a browser, and
 * JSON stays first wherever a JSON renderer is allowed (no format, `format=json`).
 */
const CHECKER_ACCEPT = 'application/json, */*;q=0.1';

/** The checker's HTTP: keep-alive connections, credentials on the base URL only, every answer bounded. */
export class HttpClient {
  readonly #http: http.Agent;
  readonly #https: https.Agent;
  /** Requests sent, for the report. */
  requests = 0;

  constructor(readonly opts: ClientOptions) {
    this.#http = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
    this.#https = new https.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  }

  /** `method url`, with the credentials when (and only when) the url is on the base. */
  request(
    method: string,
    url: string,
    extra: { headers?: Record<string, string>; body?: Buffer } = {},
  ): Promise<Fetched> {
    this.requests++;
    const onBase = this.opts.scope.contains(url);
    const headers = {
      accept: CHECKER_ACCEPT,
      'user-agent': 'workplace-stub-check',
      ...(onBase ? this.opts.headers : {}),
      ...extra.headers,
    };
    const agent = url.startsWith('https:') ? this.#https : this.#http;
    return send(url, {
      method,
      headers,
      body: extra.body,
      timeoutMs: this.opts.timeoutMs,
      maxBody: this.opts.maxBody,
      agent,
    });
  }

  get(url: string): Promise<Fetched> {
    return this.request('GET', url);
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

/** Runs `work` over `items` with at most `limit` at once, results in input order. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T, i);
    }
  });
  await Promise.all(lanes);
  return out;
}
