import type { Renderer } from '../../openapi/operations.js';
import { pythonInt } from '../python/int.js';

/**
 * DRF's content negotiation (rest_framework/negotiation.py DefaultContentNegotiation,
 * utils/mediatypes.py), run before authentication and before the method is looked at: a format
 * (the `.json` suffix, else the `format` query parameter) filters the renderers, then the
 * `Accept` header chooses among them by precedence. Every renderer here renders JSON, whatever the
 * media type it is negotiated as (`api` answers JSON, the document says so).
 */
export type Negotiation =
  | { readonly ok: true; readonly renderer: Renderer; readonly indent: number | undefined }
  /** 404: no renderer for the format; 406: none satisfies Accept. */
  | { readonly ok: false; readonly status: 404 | 406 };

const JSON_MEDIA_TYPE = 'application/json';

/** django.utils.http.parse_header_parameters (Django 4.2+): the lower-cased type and its parameters. */
export function parseHeaderParameters(line: string): { type: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  if (line === '') return { type: '', params };
  const parts = splitParams(`;${line}`);
  const type = (parts.shift() ?? '').toLowerCase();
  for (const p of parts) {
    const i = p.indexOf('=');
    if (i < 0) continue;
    let name = p.slice(0, i).trim().toLowerCase();
    if (name.endsWith('*')) name = name.slice(0, -1);
    let value = p.slice(i + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1).replaceAll('\\\\', '\\').replaceAll('\\"', '"');
    params.set(name, value);
  }
  return { type, params };
}

/**
 * django.utils.http._parseparam: `;`-separated parts, a `;` inside quotes kept (the quotes before
 * it, less the escaped ones, are odd). One pass, counting as it goes.
 */
function splitParams(line: string): string[] {
  const out: string[] = [];
  let pos = 0;
  while (line.charCodeAt(pos) === 0x3b) {
    const start = pos + 1;
    let quotes = 0;
    let end = line.length;
    for (let k = start; k < line.length; k++) {
      const ch = line.charCodeAt(k);
      if (ch === 0x3b && (k === start || quotes % 2 === 0)) {
        end = k;
        break;
      }
      // `"` counts, `\"` takes one back (str.count of each over the part so far).
      if (ch === 0x22 && !(k > start && line.charCodeAt(k - 1) === 0x5c)) quotes++;
    }
    out.push(line.slice(start, end).trim());
    pos = end;
  }
  return out;
}

interface MediaType {
  readonly main: string;
  readonly sub: string;
  readonly params: Map<string, string>;
  readonly precedence: number;
}

function mediaType(orig: string): MediaType {
  const { type, params } = parseHeaderParameters(orig);
  const slash = type.indexOf('/');
  const main = slash < 0 ? type : type.slice(0, slash);
  const sub = slash < 0 ? '' : type.slice(slash + 1);
  const onlyQ = params.size === 0 || (params.size === 1 && params.has('q'));
  const precedence = main === '*' ? 0 : sub === '*' ? 1 : onlyQ ? 2 : 3;
  return { main, sub, params, precedence };
}

/** `_MediaType.match`: does the renderer's type (no parameters here) satisfy the client's? */
function matches(renderer: MediaType, client: MediaType): boolean {
  if (renderer.sub !== '*' && client.sub !== '*' && client.sub !== renderer.sub) return false;
  return renderer.main === '*' || client.main === '*' || client.main === renderer.main;
}

/** The renderers of a view that declares no `format`: JSONRenderer and the document's `api`. */
export const DEFAULT_RENDERERS: readonly Renderer[] = Object.freeze([
  { format: 'api', mediaType: JSON_MEDIA_TYPE },
  { format: 'json', mediaType: JSON_MEDIA_TYPE },
]);

/**
 * `select_renderer`, then JSONRenderer.get_indent on the accepted media type: `indent=N` is
 * clamped to 0..8, and 0 means compact. `accept` is undefined when the header is absent (DRF then
 * reads it as `*` + `/*`); an empty header matches nothing.
 */
export function negotiate(
  renderers: readonly Renderer[],
  format: string | undefined,
  accept: string | undefined,
): Negotiation {
  const candidates = format ? renderers.filter((r) => r.format === format) : renderers;
  if (candidates.length === 0) return { ok: false, status: 404 };
  const accepts = (accept ?? '*/*').split(',').map((t) => t.trim());
  // order_by_precedence: most specific first; within a level, the header's order (DRF's is a set).
  const levels: MediaType[][] = [[], [], [], []];
  for (const a of accepts) {
    const m = mediaType(a);
    levels[3 - m.precedence]?.push(m);
  }
  for (const level of levels) {
    for (const renderer of candidates) {
      const own = mediaType(renderer.mediaType);
      const hit = level.find((m) => matches(own, m));
      if (hit === undefined) continue;
      // The accepted media type is the client's when it is as specific as the renderer's, else the
      // renderer's with the client's parameters (`*/*; indent=4` → `application/json;indent=4`):
      // its parameters are the client's either way.
      return { ok: true, renderer, indent: indentOf(hit.params.get('indent')) };
    }
  }
  return { ok: false, status: 406 };
}

function indentOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = pythonInt(raw);
  if (n === undefined) return undefined;
  const clamped = n > 8n ? 8 : n < 0n ? 0 : Number(n);
  return clamped === 0 ? undefined : clamped;
}
