// Answers recorded from the reference deployment (test/reference/drf, its default profile) and kept
// here as JSON, one file per core module, so that the unit tests replay them without Python.
// `npm run record:answers` (scripts/record-answers.ts) sends every case to the reference and
// rewrites the files; test/reference/recorded.test.ts replays them against the live reference, so
// that a recording cannot rot. To add a case: add `{ "name", "request" }` to a file, then record.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StubCore } from '../../../../src/core/answer.js';
import { compileSnapshot, type Model } from '../../../../src/core/model.js';
import type { CoreAnswer } from '../../../../src/core/request.js';
import type { Snapshot } from '../../../../src/core/snapshot.js';
import { bundledSnapshot } from '../../../../src/adapters/fetch.js';
import { deploymentHandlers } from '../../../../src/deployment/handlers.js';
import { LOOPBACK_HOSTS } from '../../../../src/server/config.js';
import { COMPARED_HEADERS } from '../../../reference/compare.js';
import { FRONTEND_ORIGIN, SESSION, TOKENS } from '../../../reference/corpus.js';

export const RECORDED_DIR = import.meta.dirname;
/** The desks the reference holds (the differential's fixtures). */
export const REFERENCE_FIXTURES = join(RECORDED_DIR, '..', '..', '..', 'reference', 'fixtures');

/**
 * The one configuration every recording is made with, the stub's and the reference's alike: the
 * production hosts (and loopback, for the reference's reset), its frontend origin (the deployment's
 * CORS middleware), a page size of 7 over the 48 desks, the differential's tokens and session.
 */
export const CONFIGURATION = Object.freeze({
  pageSize: 7,
  allowedHosts: Object.freeze(['app.team.lcog.org', 'api.team.lcog.org']),
  frontendOrigin: FRONTEND_ORIGIN,
  tokens: Object.freeze([...TOKENS]),
  sessions: Object.freeze([SESSION]),
  /** The Host of every request that names none. */
  host: 'api.team.lcog.org',
});

/** A request as sent: its target as on the request line; a body as UTF-8 text, or as hex for other bytes. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: readonly (readonly [string, string])[];
  readonly body?: string;
  readonly bodyHex?: string;
}

/** An answer as recorded: the status, the headers its recording compares (lower-case names), the body. */
export interface Want {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface RecordedCase {
  readonly name: string;
  /** Requests sent first, in order, after a reset (their answers are not recorded). */
  readonly setup?: readonly RecordedRequest[];
  readonly request: RecordedRequest;
  /** Absent until recorded. */
  readonly want?: Want;
}

export interface Recording {
  readonly about: string;
  readonly configuration: typeof CONFIGURATION;
  /** The headers compared, besides Content-Length on HEAD (COMPARED_HEADERS when absent). */
  readonly headers?: readonly string[];
  readonly cases: readonly RecordedCase[];
}

/** The recordings' files, relative to this folder (`drf/filters.json`). */
export function recordingPath(name: string): string {
  return join(RECORDED_DIR, name);
}

export function readRecording(name: string): Recording {
  return JSON.parse(readFileSync(recordingPath(name), 'utf8')) as Recording;
}

/** The headers a recording compares. */
export function comparedHeaders(recording: Pick<Recording, 'headers'>): readonly string[] {
  return recording.headers ?? COMPARED_HEADERS;
}

/** The request's headers as sent: the configuration's Host first unless it names one. */
export function headersOf(req: RecordedRequest): [string, string][] {
  const headers = (req.headers ?? []).map(([k, v]) => [k, v] as [string, string]);
  return headers.some(([k]) => k.toLowerCase() === 'host') ? headers : [['Host', CONFIGURATION.host], ...headers];
}

export function bodyOf(req: RecordedRequest): Uint8Array | undefined {
  if (req.bodyHex !== undefined) return Uint8Array.from(Buffer.from(req.bodyHex, 'hex'));
  return req.body === undefined ? undefined : new TextEncoder().encode(req.body);
}

/**
 * A new CSRF cookie (CsrfViewMiddleware replacing a missing or malformed one): a random secret and
 * a date a year ahead, kept as placeholders so that a recording is the same each time.
 */
const NEW_CSRF_COOKIE = /csrftoken=[A-Za-z0-9]{32}; expires=[A-Za-z]{3}, \d\d [A-Za-z]{3} \d{4} \d\d:\d\d:\d\d GMT;/;
const NEW_CSRF_COOKIE_KEPT = 'csrftoken={secret}; expires={a year ahead};';

/** What of an answer a recording keeps (header names lower-case in `headers`). */
export function want(
  recording: Pick<Recording, 'headers'>,
  method: string,
  answer: { status: number; headers: Readonly<Record<string, string>>; body: string },
): Want {
  const headers: Record<string, string> = {};
  const names = [...comparedHeaders(recording), ...(method === 'HEAD' ? ['content-length'] : [])];
  for (const name of [...names].sort()) {
    const v = answer.headers[name];
    if (v !== undefined) headers[name] = name === 'set-cookie' ? v.replace(NEW_CSRF_COOKIE, NEW_CSRF_COOKIE_KEPT) : v;
  }
  return { status: answer.status, headers, body: method === 'HEAD' ? '' : answer.body };
}

let model: Model | undefined;

/** The bundled snapshot with the reference's desks: what `--fixtures test/reference/fixtures` loads. */
export function referenceSnapshot(): Snapshot {
  const snapshot = bundledSnapshot();
  const desk = snapshot.collections['/api/v1/desk'];
  if (desk === undefined) throw new Error('the bundled snapshot has no desk collection');
  const items = JSON.parse(readFileSync(join(REFERENCE_FIXTURES, 'desk.json'), 'utf8')) as unknown[];
  return {
    ...snapshot,
    collections: {
      ...snapshot.collections,
      '/api/v1/desk': { ...desk, from: 'test/reference/fixtures/desk.json', items },
    },
  };
}

/** The stub's core, configured as the recordings' reference was (as the differential starts the stub). */
export function recordedCore(): StubCore {
  model ??= compileSnapshot(referenceSnapshot());
  return new StubCore(model, {
    pageSize: CONFIGURATION.pageSize,
    trustProxy: false,
    allowedHosts: [...LOOPBACK_HOSTS, ...CONFIGURATION.allowedHosts],
    fallbackHost: '127.0.0.1:80',
    maxDelayMs: 10_000,
    cors: { mode: 'deployment', frontendOrigin: CONFIGURATION.frontendOrigin },
    tokens: new Set(CONFIGURATION.tokens),
    sessions: new Set(CONFIGURATION.sessions),
    handlers: deploymentHandlers,
    journal: 0,
  });
}

/**
 * Headers of which Node's IncomingMessage keeps the first only; it joins the others' repeats, Cookie's
 * with `; ` (node's `_http_incoming.js` matchKnownFields).
 */
const NODE_KEEPS_FIRST = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** The core's answer to one request, through no socket: headers as Node's server gives them. */
export async function answerInProcess(core: StubCore, req: RecordedRequest): Promise<CoreAnswer> {
  const headers = headersOf(req);
  return core.answer({
    method: req.method,
    url: req.path,
    header: (name) => {
      const values = headers.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
      if (values.length === 0) return undefined;
      return NODE_KEEPS_FIRST.has(name) ? values[0] : values.join(name === 'cookie' ? '; ' : ', ');
    },
    body: bodyOf(req),
    headers: () => headers.flat(),
  });
}

/** A case replayed in process: a fresh state, its setup, then its request, kept as its recording keeps it. */
export async function replayInProcess(
  core: StubCore,
  recording: Pick<Recording, 'headers'>,
  c: RecordedCase,
): Promise<Want> {
  core.reset();
  for (const step of c.setup ?? []) await answerInProcess(core, step);
  const answer = await answerInProcess(core, c.request);
  // Content-Length is the adapter's: the body's UTF-8 bytes.
  const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) };
  return want(recording, c.request.method, { ...answer, headers });
}

/** A recorded case as a table row: `[name, given, want]` (given: the case's setup and request). */
export type RecordedRow = [name: string, given: RecordedCase, want: Want];

/**
 * A recording as tables for `it.each`, and the in-process replay of a case (a core of its own per
 * test file). `differs` names the cases where the stub is known to answer otherwise than the
 * reference, each with why: they come apart, in `differing`, for a test that they still differ.
 */
export function recordedTable(
  name: string,
  differs: Readonly<Record<string, string>> = {},
): { cases: RecordedRow[]; differing: RecordedRow[]; replay: (given: RecordedCase) => Promise<Want> } {
  const recording = readRecording(name);
  if (JSON.stringify(recording.configuration) !== JSON.stringify(CONFIGURATION))
    throw new Error(`${name} was recorded with another configuration: npm run record:answers`);
  const rows = recording.cases.map((c): RecordedRow => {
    if (c.want === undefined) throw new Error(`${name}: "${c.name}" is not recorded yet: npm run record:answers`);
    return [c.name, c, c.want];
  });
  for (const known of Object.keys(differs))
    if (!rows.some(([n]) => n === known)) throw new Error(`${name} has no case "${known}"`);
  const core = recordedCore();
  return {
    cases: rows.filter(([n]) => !Object.hasOwn(differs, n)),
    differing: rows.filter(([n]) => Object.hasOwn(differs, n)),
    replay: (given) => replayInProcess(core, recording, given),
  };
}
