// The recorded cases (test/unit/core/recorded/) sent to the live reference deployment: by the
// recorder (scripts/record-answers.ts), which writes the answers down, and by recorded.test.ts,
// which requires the same answers again. Each case after a reset (`POST /__ref/reset`), its setup
// first; every request through a socket, bytes exactly as written.
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { LOOPBACK_HOSTS } from '../../src/server/config.js';
import { type Reference, startReference } from './drf-server.js';
import { REF_RESET } from './harness.js';
import {
  bodyOf,
  CONFIGURATION,
  headersOf,
  RECORDED_DIR,
  readRecording,
  type RecordedCase,
  type RecordedRequest,
  type Want,
  want,
} from '../unit/core/recorded/recording.js';
import { mapLimit } from './send.js';

export interface WireAnswer {
  status: number;
  /** Names lower-case; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: string;
}

/** The recordings of the reference (`drf/filters.json`, …), in a stable order. */
export function referenceRecordings(): string[] {
  const out: string[] = [];
  for (const dir of ['django', 'drf'])
    for (const f of readdirSync(join(RECORDED_DIR, dir)).sort())
      if (f.endsWith('.json')) out.push(relative(RECORDED_DIR, join(RECORDED_DIR, dir, f)));
  return out;
}

/** The reference, configured as the recordings were made. */
export function startRecordingReference(): Promise<Reference> {
  return startReference({
    pageSize: CONFIGURATION.pageSize,
    allowedHosts: [...LOOPBACK_HOSTS, ...CONFIGURATION.allowedHosts],
    frontendOrigin: CONFIGURATION.frontendOrigin,
    tokens: [...CONFIGURATION.tokens],
    sessions: [...CONFIGURATION.sessions],
  });
}

/** One HTTP/1.1 exchange on its own connection: the request's bytes as given, the answer read to the close. */
export function sendWire(
  base: string,
  req: { method: string; path: string; headers: readonly (readonly [string, string])[]; body?: Uint8Array | undefined },
  timeoutMs = 10_000,
): Promise<WireAnswer> {
  const { hostname, port } = new URL(base);
  const body = Buffer.from(req.body ?? new Uint8Array());
  const lines = [`${req.method} ${req.path} HTTP/1.1`, ...req.headers.map(([k, v]) => `${k}: ${v}`)];
  if (!req.headers.some(([k]) => k.toLowerCase() === 'content-length') && (body.length || req.body !== undefined))
    lines.push(`Content-Length: ${body.length}`);
  lines.push('Connection: close');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`${req.method} ${req.path}: no answer within ${timeoutMs} ms`));
    });
    socket.on('connect', () => socket.end(Buffer.concat([head, body])));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const [statusLine = '', ...headerLines] = all.subarray(0, Math.max(end, 0)).toString('latin1').split('\r\n');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
      if (end < 0 || !m) return reject(new Error(`${req.method} ${req.path}: no answer (${all.length} bytes)`));
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim().toLowerCase();
        const v = line.slice(i + 1).trim();
        headers[k] = k in headers ? `${headers[k]}, ${v}` : v;
      }
      let rest = all.subarray(end + 4);
      if (req.method === 'HEAD') rest = Buffer.alloc(0);
      else if (headers['content-length'] !== undefined) rest = rest.subarray(0, Number(headers['content-length']));
      resolve({ status: Number(m[1]), headers, body: rest.toString('utf8') });
    });
  });
}

const send = (base: string, req: RecordedRequest) =>
  sendWire(base, { method: req.method, path: req.path, headers: headersOf(req), body: bodyOf(req) });

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A case that cannot change the reference's state: no setup, a method Django never writes with. */
const reads = (c: RecordedCase) => !c.setup?.length && !WRITES.has(c.request.method.toUpperCase());

/**
 * Every case of the recordings on the reference at `base`, each as on a reference just reset: the
 * reads first, several at a time, on the fixtures; then each case that writes (or has a setup)
 * alone, after a reset where the state may have changed. The answers, by recording, in the order
 * of its cases.
 */
export async function replayOnReference(base: string, names: readonly string[]): Promise<Map<string, Want[]>> {
  const reset = async () => {
    const a = await sendWire(base, { method: 'POST', path: REF_RESET, headers: [['Host', new URL(base).host]] });
    if (a.status !== 204) throw new Error(`POST ${REF_RESET} answered ${a.status}`);
  };
  const all = names.flatMap((name) => {
    const recording = readRecording(name);
    return recording.cases.map((c, i) => ({ name, recording, c, i }));
  });
  const out = new Map<string, Want[]>(names.map((n) => [n, []]));
  const put = (x: (typeof all)[number], w: Want) => ((out.get(x.name) as Want[])[x.i] = w);
  await reset();
  await mapLimit(
    all.filter((x) => reads(x.c)),
    4,
    async (x) => put(x, want(x.recording, x.c.request.method, await send(base, x.c.request))),
  );
  // A reset (it reloads every fixture) only where the state may have changed: after a setup, or a
  // write the reference did not refuse with a 4xx.
  let dirty = false;
  for (const x of all.filter((y) => !reads(y.c))) {
    if (dirty) await reset();
    for (const step of x.c.setup ?? []) await send(base, step);
    const answer = await send(base, x.c.request);
    dirty = !!x.c.setup?.length || answer.status < 400 || answer.status >= 500;
    put(x, want(x.recording, x.c.request.method, answer));
  }
  return out;
}
