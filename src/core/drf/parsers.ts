import { MULTIPART_NO_BOUNDARY_DETAIL, parseErrorDetail, unsupportedMediaTypeDetail } from '../errors.js';
import { parsePythonJson } from '../python/json.js';
import { parseHeaderParameters } from './negotiation.js';
import { MAX_QUERY_FIELDS, parseQuery, queryFieldCount } from '../python/query.js';
import { fromCharCodes, readUtf8Stream, utf8OrLatin1 } from '../python/utf8.js';

/**
 * `request.data` as DRF's default parsers give it (rest_framework/request.py `_parse`,
 * parsers.py): JSONParser, FormParser, MultiPartParser, chosen by the request's Content-Type. A
 * form's values are lists (a QueryDict); JSON is whatever the document holds.
 */
export type ParsedBody =
  | { readonly ok: true; readonly data: unknown; readonly form: boolean }
  | { readonly ok: false; readonly status: 400 | 415; readonly detail: string }
  /** Django's TooManyFieldsSent (a SuspiciousOperation): its 400 page, before DRF sees the body. */
  | { readonly ok: false; readonly status: 400; readonly tooManyFields: true };

const TOO_MANY_FIELDS = Object.freeze({ ok: false, status: 400, tooManyFields: true } as const);

export function parseBody(contentType: string | undefined, body: Uint8Array | undefined): ParsedBody {
  const type = contentType ?? '';
  // No body at all: DRF answers {} (a QueryDict for a form) without choosing a parser.
  if (body === undefined || body.length === 0)
    return { ok: true, data: isForm(type) ? new Map<string, string[]>() : {}, form: isForm(type) };
  const { type: media, params } = parseHeaderParameters(type);
  if (media === 'application/json') {
    const read = readUtf8Stream(body);
    if (!read.ok) return { ok: false, status: 400, detail: parseErrorDetail(read.message) };
    const parsed = parsePythonJson(read.text);
    return parsed.ok
      ? { ok: true, data: parsed.value, form: false }
      : { ok: false, status: 400, detail: parseErrorDetail(parsed.message) };
  }
  if (media === 'application/x-www-form-urlencoded') {
    // QueryDict: the body decoded as UTF-8, else as latin-1, then parse_qsl(max_num_fields=1000).
    const text = utf8OrLatin1(body);
    if (queryFieldCount(text) > MAX_QUERY_FIELDS) return TOO_MANY_FIELDS;
    return { ok: true, data: parseQuery(text, true), form: true };
  }
  if (media === 'multipart/form-data') {
    const boundary = params.get('boundary');
    if (!boundary) return { ok: false, status: 400, detail: MULTIPART_NO_BOUNDARY_DETAIL };
    const fields = parseMultipart(body, boundary);
    return fields === undefined ? TOO_MANY_FIELDS : { ok: true, data: fields, form: true };
  }
  return { ok: false, status: 415, detail: unsupportedMediaTypeDetail(type) };
}

function isForm(type: string): boolean {
  const media = parseHeaderParameters(type).type;
  return media === 'application/x-www-form-urlencoded' || media === 'multipart/form-data';
}

/**
 * multipart/form-data's text fields (files are not fields of these items): name → values;
 * undefined past DATA_UPLOAD_MAX_NUMBER_FIELDS fields (MultiPartParser's TooManyFieldsSent).
 */
function parseMultipart(body: Uint8Array, boundary: string): Map<string, string[]> | undefined {
  const out = new Map<string, string[]>();
  const text = fromCharCodes(body);
  let fields = 0;
  for (const part of text.split(`--${boundary}`)) {
    const sep = part.indexOf('\r\n\r\n');
    if (sep < 0) continue;
    const disposition = partHeader(part.slice(0, sep), 'content-disposition');
    if (disposition === undefined) continue;
    const { params } = parseHeaderParameters(disposition);
    const name = params.get('name');
    if (name === undefined || params.has('filename')) continue;
    if (++fields > MAX_QUERY_FIELDS) return undefined;
    let value = part.slice(sep + 4);
    if (value.endsWith('\r\n')) value = value.slice(0, -2);
    // Django decodes a field with errors="replace".
    const decoded = lenient.decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
    const list = out.get(name);
    if (list) list.push(decoded);
    else out.set(name, [decoded]);
  }
  return out;
}

const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** The value of a part's header line by lower-case name (the first such line). */
function partHeader(head: string, name: string): string | undefined {
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name) return line.slice(colon + 1);
  }
  return undefined;
}
