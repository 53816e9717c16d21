// Per-request comparison of two answers, and the grouping of differences into classes.
import type { Answer } from './send.js';

/** The headers compared on every answer (content-length too on HEAD, where there is no body). */
export const COMPARED_HEADERS = ['content-type', 'allow', 'vary', 'location', 'www-authenticate'] as const;
/** Compared where the configuration names a frontend origin (the deployment's CORS middleware). */
export const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'access-control-max-age',
] as const;

/** An answer as compared: the server's own origin (used when the request has no Host) replaced by {base}. */
export interface Observed {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
  error?: string;
}

export interface Difference {
  kind: 'status' | 'header' | 'body';
  /** The header name, or the JSON pointer / text offset where the bodies first differ. */
  where: string;
  reference: string;
  stub: string;
}

export function observe(answer: Answer, ownOrigin: string, method: string, opts: { cors?: boolean } = {}): Observed {
  const norm = (s: string) => s.split(ownOrigin).join('{base}');
  const headers: Record<string, string | undefined> = {};
  for (const name of [...COMPARED_HEADERS, ...(opts.cors ? CORS_HEADERS : [])])
    headers[name] = answer.headers[name] === undefined ? undefined : norm(answer.headers[name]);
  if (method === 'HEAD') headers['content-length'] = answer.headers['content-length'];
  return { status: answer.status, headers, body: norm(answer.body), ...(answer.error ? { error: answer.error } : {}) };
}

function show(v: unknown, max = 120): string {
  const s = v === undefined ? '(absent)' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function parseJson(s: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch {
    return { ok: false };
  }
}

/** The first place where two JSON values differ (pointer, both values), or null when equal. */
function firstJsonDifference(a: unknown, b: unknown, pointer = ''): { pointer: string; a: unknown; b: unknown } | null {
  if (a === b) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object')
    return { pointer: pointer || '/', a, b };
  if (Array.isArray(a) !== Array.isArray(b)) return { pointer: pointer || '/', a, b };
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return { pointer: `${pointer}/${i}`, a: a[i], b: b[i] };
      const d = firstJsonDifference(a[i], b[i], `${pointer}/${i}`);
      if (d) return d;
    }
    return null;
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  for (const k of new Set([...ka, ...kb])) {
    const d = firstJsonDifference(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      `${pointer}/${k}`,
    );
    if (d) return d;
  }
  if (ka.join('\0') !== kb.join('\0')) return { pointer: `${pointer || '/'} (key order)`, a: ka, b: kb };
  return null;
}

/** Every difference between the reference's answer and the stub's. */
export function compareAnswers(ref: Observed, stub: Observed): Difference[] {
  const out: Difference[] = [];
  if (ref.status !== stub.status || ref.error || stub.error) {
    out.push({
      kind: 'status',
      where: 'status',
      reference: ref.error ? `no answer: ${ref.error}` : String(ref.status),
      stub: stub.error ? `no answer: ${stub.error}` : String(stub.status),
    });
  }
  for (const name of new Set([...Object.keys(ref.headers), ...Object.keys(stub.headers)])) {
    if (ref.headers[name] !== stub.headers[name])
      out.push({ kind: 'header', where: name, reference: show(ref.headers[name]), stub: show(stub.headers[name]) });
  }
  if (ref.body !== stub.body) {
    const a = parseJson(ref.body);
    const b = parseJson(stub.body);
    if (a.ok && b.ok) {
      const d = firstJsonDifference(a.value, b.value);
      if (d) out.push({ kind: 'body', where: d.pointer, reference: show(d.a), stub: show(d.b) });
      else out.push({ kind: 'body', where: '(formatting)', reference: show(ref.body, 80), stub: show(stub.body, 80) });
    } else {
      let i = 0;
      while (i < ref.body.length && ref.body[i] === stub.body[i]) i++;
      out.push({
        kind: 'body',
        where: `text at ${i}`,
        reference: show(ref.body.slice(Math.max(0, i - 20), i + 80)),
        stub: show(stub.body.slice(Math.max(0, i - 20), i + 80)),
      });
    }
  }
  return out;
}

/** What an answer is, in a few words: its status and content type, and its detail or title. */
export function gist(o: Observed): string {
  if (o.error) return `no answer (${o.error})`;
  const ct = o.headers['content-type'] ?? '(no content-type)';
  let what = '';
  const json = parseJson(o.body);
  if (json.ok && json.value && typeof json.value === 'object' && !Array.isArray(json.value)) {
    const v = json.value as Record<string, unknown>;
    if (typeof v.detail === 'string') what = `detail ${JSON.stringify(v.detail)}`;
    else if ('count' in v && 'results' in v) what = 'envelope';
    else what = `object {${Object.keys(v).slice(0, 4).join(',')}${Object.keys(v).length > 4 ? ',…' : ''}}`;
  } else if (o.body === '') what = 'no body';
  else {
    const title = /<title>([^<]*)<\/title>/i.exec(o.body);
    what = title ? `html "${title[1]?.trim()}"` : `text ${JSON.stringify(o.body.slice(0, 40))}`;
  }
  return `${o.status} ${ct} ${what}`.replace(/\d{4,}/g, '#');
}

/** Pointers with array indexes as `*`, values with long numbers as `#`: one class per kind of difference. */
function generalise(s: string): string {
  return s
    .replace(/\/\d+(?=\/|$| )/g, '/*')
    .replace(/\d{3,}/g, '#')
    .replace(/\/desk\/[^/?"]+/g, '/desk/<pk>');
}

export interface Classified {
  kind: 'status' | 'header' | 'body';
  key: string;
}

/** The class of a differing request: by status first (then both answers' gist), else by header, else by body. */
/**
 * The class of a differing request: by status first (then both answers' gist), else by header, else by
 * body. `newer` names the allow-list entries that turned the reference's answer into the newer versions'
 * (then the key says "expected"); `asOld` marks a stub that gave the reference's own, older answer.
 */
export function classify(
  diffs: Difference[],
  ref: Observed,
  stub: Observed,
  opts: { newer?: string[]; asOld?: boolean } = {},
): Classified {
  const label = opts.newer?.length ? 'expected' : 'reference';
  const c = classifyOnly(diffs, ref, stub, label);
  if (opts.asOld)
    return {
      kind: c.kind,
      key: `[stub answers as DRF 3.14 / Django 3.2 do; newer: ${opts.newer?.join(', ')}] ${c.key}`,
    };
  return c;
}

function classifyOnly(diffs: Difference[], ref: Observed, stub: Observed, label: string): Classified {
  const status = diffs.find((d) => d.kind === 'status');
  if (status) return { kind: 'status', key: `status: ${label} ${gist(ref)} ≠ stub ${gist(stub)}` };
  const headers = diffs.filter((d) => d.kind === 'header');
  if (headers.length) {
    return {
      kind: 'header',
      key: `header (${ref.status}): ${headers.map((h) => `${h.where}: ${label} ${generalise(h.reference)} ≠ stub ${generalise(h.stub)}`).join('; ')}`,
    };
  }
  const body = diffs.find((d) => d.kind === 'body');
  if (body)
    return {
      kind: 'body',
      key: `body (${gist(ref)}) at ${generalise(body.where)}: ${label} ${generalise(body.reference)} ≠ stub ${generalise(body.stub)}`,
    };
  return { kind: 'body', key: 'identical' };
}

export function summariseAnswer(o: Observed): {
  status: number;
  headers: Record<string, string>;
  body: string;
  error?: string;
} {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.headers)) if (v !== undefined) headers[k] = v;
  return {
    status: o.status,
    headers,
    body: o.body.length > 400 ? `${o.body.slice(0, 400)}… (${o.body.length} chars)` : o.body,
    ...(o.error ? { error: o.error } : {}),
  };
}
