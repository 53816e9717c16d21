// Known version differences for the designer corpus: the reference's designer profile runs Debian's
// Django 3.2.25 + DRF 3.14.0 + django-filter 23.1; the stub imitates DRF 3.16 on Django 5.2 LTS (with
// django-filter 25, whose code on these paths is as 23.1's: see the report). Each entry turns the
// reference's answer into the newer versions' and cites the source lines of both (DRF: tags 3.14.0,
// 3.15.0, 3.16.1 of github.com/encode/django-rest-framework; Django: 3.2.25 as Debian ships it and the
// Django-5.2.17 wheel). Nothing else belongs here: a difference that is not a version difference is a
// stub bug (or, where the spec leaves a choice open, a question for the report).
//
// The entries of allow-list.ts that apply to these routes are reused as they are; then the designer's
// own. Rewrites (asking the reference an equivalent request) come before edits of the answer.
import { type AllowContext, type AllowEntry, type AllowState, parseQuery } from './allow-list.js';
import { DESIGNER_VERSION_ENTRIES } from './designer-versions.js';
import type { DesignerRequest } from './designer-corpus.js';
import type { Answer } from './send.js';

export interface DesignerAllowState {
  request: DesignerRequest;
  answer: Answer;
}

export interface DesignerAllowContext {
  /** Sends a request to the same reference (a write only when the original was refused: see the harness). */
  reference(req: DesignerRequest): Promise<Answer>;
}

export interface DesignerAllowEntry {
  id: string;
  summary: string;
  older: string[];
  newer: string[];
  adjust(state: DesignerAllowState, ctx: DesignerAllowContext): Promise<DesignerAllowState | null>;
}

/** designer-versions.ts's entries used here (the X-Forwarded-Proto one needs a proxy configuration: none here). */
export const REUSED_ENTRY_IDS = [
  'drf-3.15-empty-page-is-page-1',
  'django-5.2-integer-pk-out-of-range',
  'drf-3.15-http404-keeps-django-message',
  'django-5.2-error-page-charset',
] as const;

function reuse(id: string): DesignerAllowEntry {
  const e = DESIGNER_VERSION_ENTRIES.find((x) => x.id === id) as AllowEntry | undefined;
  if (!e) throw new Error(`designer-versions.ts has no entry ${id}`);
  // Those entries read the request's path, method and headers only (and the server key only in the
  // proxy entry, not reused): a designer request serves as a corpus request.
  return {
    id: e.id,
    summary: e.summary,
    older: e.older,
    newer: e.newer,
    adjust: (state, ctx) =>
      e.adjust(state as unknown as AllowState, ctx as unknown as AllowContext) as Promise<DesignerAllowState | null>,
  };
}

// --- Python semantics the entries need -------------------------------------------------------------

/** Python's str.isspace() characters (what `\s` matches in a str pattern, and what str.split() splits on). */
const PY_WS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** Python's `str.split()` (no argument): runs of whitespace, no empty strings. */
export function pySplit(s: string): string[] {
  return s.split(new RegExp(`[${PY_WS}]+`, 'u')).filter((t) => t !== '');
}

/** django.utils.text.smart_split (Django 5.2.17 L393-423): whitespace-separated, quoted sections kept whole. */
export function smartSplit(text: string): string[] {
  const notWsQuote = `[^${PY_WS}'"]`;
  const re = new RegExp(
    `((?:${notWsQuote}*(?:(?:"(?:[^"\\\\]|\\\\[^\\n])*"|'(?:[^'\\\\]|\\\\[^\\n])*')${notWsQuote}*)+)|[^${PY_WS}]+)`,
    'gu',
  );
  return [...text.matchAll(re)].map((m) => m[0]);
}

/** django.utils.text.unescape_string_literal (5.2.17 L427-444). */
function unescapeStringLiteral(s: string): string {
  const quote = s[0] as string;
  return s.slice(1, -1).split(`\\${quote}`).join(quote).split('\\\\').join('\\');
}

/** DRF 3.16.1's search_smart_split (filters.py L23-37): the terms a search value gives. */
export function searchTerms316(value: string): string[] {
  const out: string[] = [];
  for (let term of smartSplit(value)) {
    term = term.replace(/^,+|,+$/g, '');
    if ((term.startsWith('"') || term.startsWith("'")) && term[0] === term[term.length - 1])
      out.push(unescapeStringLiteral(term));
    else for (const sub of term.split(',')) if (sub) out.push(sub.trim());
  }
  return out;
}

/** DRF 3.14.0's SearchFilter.get_search_terms (filters.py L60-68): NULs removed, commas as spaces, split. */
export function searchTerms314(value: string): string[] {
  return pySplit(value.replace(/\0/g, '').replace(/,/g, ' '));
}

/** Python's urllib.parse.quote_plus (safe ''), as urlencode writes query values into DRF's page links. */
export function pyQuotePlus(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.~-]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function splitPath(path: string): { path: string; query: string | null } {
  const i = path.indexOf('?');
  return i < 0 ? { path, query: null } : { path: path.slice(0, i), query: path.slice(i + 1) };
}

/** The query with the last `key` parameter's raw fragment replaced. */
function replaceLastParam(query: string, key: string, fragment: string): string {
  const parts = query.split('&');
  const parsed = parseQuery(query);
  // parseQuery drops empty fragments: map back by position among the non-empty ones
  const nonEmpty = parts.map((p, i) => [p, i] as const).filter(([p]) => p !== '');
  let last = -1;
  parsed.forEach((p, j) => {
    if (p.key === key) last = j;
  });
  if (last < 0) return query;
  const at = (nonEmpty[last] as readonly [string, number])[1];
  parts[at] = fragment;
  return parts.join('&');
}

function lastValue(query: string | null, key: string): string | undefined {
  if (query === null) return undefined;
  const values = parseQuery(query).filter((p) => p.key === key);
  return values.length ? (values[values.length - 1] as { value: string }).value : undefined;
}

function isDeskList(path: string): boolean {
  return splitPath(path).path === '/api/v1/desk';
}

function withBody(answer: Answer, body: string, method: string): Answer {
  const headers = { ...answer.headers };
  if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(body, 'utf8'));
  return { ...answer, headers, body: method === 'HEAD' ? '' : body };
}

/** Python's int(Decimal(s)) for the decimal strings django-filter's NumberFilter reads (ASCII digits), else null. */
export function decimalToInt(s: string): bigint | null {
  const m = /^\s*([+-])?(\d+(?:_\d+)*)?(?:\.(\d+(?:_\d+)*)?)?(?:[eE]([+-]?\d+(?:_\d+)*))?\s*$/.exec(s);
  if (!m || (m[2] === undefined && m[3] === undefined)) return null;
  const int = (m[2] ?? '').replace(/_/g, '');
  const frac = (m[3] ?? '').replace(/_/g, '');
  let exp = BigInt((m[4] ?? '0').replace(/_/g, '')) - BigInt(frac.length);
  let digits = BigInt(`${int}${frac}` || '0');
  if (digits === 0n) return 0n;
  if (exp > 400n) exp = 400n; // beyond any range that matters here
  if (exp < -400n) return 0n;
  digits = exp >= 0n ? digits * 10n ** exp : digits / 10n ** -exp;
  return m[1] === '-' ? -digits : digits;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const BOOLEAN_FIELDS = new Set(['active', 'lead', 'ergonomic', 'held_today']);
const BOOL_314 = new Set([
  't',
  'T',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  '1',
  'f',
  'F',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '0',
]);
const BOOL_316 = new Set(['t', 'y', 'yes', 'true', 'on', '1', 'f', 'n', 'no', 'false', 'off', '0']);
/** A string DRF 3.16 reads as a boolean (case-insensitively) and DRF 3.14 refuses. */
function newlyBoolean(v: unknown): v is string {
  return typeof v === 'string' && !BOOL_314.has(v) && BOOL_316.has(v.toLowerCase());
}

function mediaType(req: DesignerRequest): string {
  const ct = req.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  return (ct.split(';')[0] ?? '').trim().toLowerCase();
}

// --- The designer's entries ---------------------------------------------------------------------

const SEARCH_SMART_SPLIT: DesignerAllowEntry = {
  id: 'drf-3.15-search-smart-split',
  summary:
    'SearchFilter splits `search` on whitespace and commas in DRF 3.14; from DRF 3.15 it keeps quoted phrases whole and unquotes them (django.utils.text.smart_split), so `"204a"` is the term 204a, `""` or a lone `"` the empty term (matches every row), `"c 20"` one term. The reference is asked with the newer terms as 3.14 reads them (a term with whitespace or a comma can match no stored number or building, whose validators allow neither: it becomes `"`, which matches nothing either; the empty term is dropped), and the `search` value in the page links is put back.',
  older: [
    "rest_framework/filters.py@3.14.0 L60-68: get_search_terms: `params = params.replace(',', ' ')` … `return params.split()`",
  ],
  newer: [
    'rest_framework/filters.py@3.15.0 L23-36 (search_smart_split) and L166 (`for term in search_smart_split(search_terms)`)',
    "rest_framework/filters.py@3.16.1 L23-37 (search_smart_split: `term.strip(',')`, quoted → `unescape_string_literal(term)`) and L83-91 (get_search_terms: `return search_smart_split(cleaned_value)`)",
    'django/utils/text.py@5.2.17 L393-423 (smart_split_re, smart_split) and L427-444 (unescape_string_literal)',
  ],
  async adjust(state, ctx) {
    const { request } = state;
    if (!['GET', 'HEAD'].includes(request.method) || !isDeskList(request.path)) return null;
    const { path, query } = splitPath(request.path);
    const value = lastValue(query, 'search');
    if (value === undefined || query === null || value.includes('\0')) return null;
    const newer = searchTerms316(value);
    const older = searchTerms314(value);
    if (newer.length === older.length && newer.every((t, i) => t === older[i])) return null;
    const terms = newer.filter((t) => t !== '').map((t) => (/[\s,]/u.test(t) || pySplit(t).length !== 1 ? '"' : t));
    const rewritten = terms.join(' ');
    const req = {
      ...request,
      path: `${path}?${replaceLastParam(query, 'search', `search=${pyQuotePlus(rewritten)}`)}`,
    };
    const answer = await ctx.reference(req);
    // the page links carry the search value the reference was given: put the original back
    const from = `search=${pyQuotePlus(rewritten)}`;
    const to = `search=${pyQuotePlus(value)}`;
    const body = answer.body.replace(
      /"(next|previous)":"([^"]*)"/g,
      (_m, k: string, url: string) =>
        `"${k}":"${url.replace(new RegExp(`([?&])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=&|$)`), `$1${to}`)}"`,
    );
    return { request: state.request, answer: withBody(answer, body, request.method) };
  },
};

const SEARCH_NULL_CHARACTER: DesignerAllowEntry = {
  id: 'drf-3.15-search-null-character',
  summary:
    'A `search` value with a NUL character: DRF 3.14 removes the NULs and searches; from DRF 3.15 the value goes through a CharField, whose ProhibitNullCharactersValidator fails: 400 ["Null characters are not allowed."] (after the field filters, before pagination).',
  older: ["rest_framework/filters.py@3.14.0 L66: `params = params.replace('\\x00', '')  # strip null characters`"],
  newer: [
    'rest_framework/filters.py@3.16.1 L88-90: `field = CharField(trim_whitespace=False, allow_blank=True)`; `cleaned_value = field.run_validation(value)` (and @3.15.0 L81-88)',
    'rest_framework/fields.py@3.16.1 L746: CharField.__init__ `self.validators.append(ProhibitNullCharactersValidator())`',
    'django/core/validators.py@5.2.17 L656-659: ProhibitNullCharactersValidator `message = _("Null characters are not allowed.")`',
    'rest_framework/views.py@3.16.1 L72-97 (exception_handler, L93-94): a ValidationError whose detail is a list is answered as that list, status 400',
  ],
  async adjust(state) {
    const { request, answer } = state;
    if (!['GET', 'HEAD'].includes(request.method) || !isDeskList(request.path)) return null;
    const value = lastValue(splitPath(request.path).query, 'search');
    if (value === undefined || !value.includes('\0')) return null;
    // the filters' 400 and content negotiation's 406 come first; an invalid page (404) after
    const pageError = answer.status === 404 && /"Invalid page\."/.test(answer.body);
    if (answer.status !== 200 && !pageError && !(request.method === 'HEAD' && answer.status === 404)) return null;
    return {
      request,
      answer: withBody({ ...answer, status: 400 }, '["Null characters are not allowed."]', request.method),
    };
  },
};

const INTEGER_FILTER_OVERFLOW: DesignerAllowEntry = {
  id: 'django-5.2-integer-filter-out-of-range',
  summary:
    "A `floor` filter value outside the 64-bit range (99999999999999999999, 1e30): django-filter's NumberFilter gives a Decimal, the IntegerField lookup int(); on SQLite Django 3.2 passes it to the driver (OverflowError: Django's HTML 500), Django 5.2 knows the range and matches nothing (an empty page). The reference is asked with an in-range floor no desk has (the validators keep floors in -5..120). (A value above 1e50 is django-filter's 400 in both.)",
  older: [
    'django/db/models/fields/__init__.py@3.2.25 L1818-1827: IntegerField.get_prep_value `return int(value)`; django/db/models/lookups.py@3.2.25 L350-368: only float rounding for gte/lt, no range check (sqlite3 raises OverflowError)',
    'django/forms/fields.py@3.2.25 L325-362: DecimalField.to_python `Decimal(value)` (django_filters/filters.py@23.1 L375-376: NumberFilter `field_class = forms.DecimalField`, as @25.2 L384-385)',
  ],
  newer: [
    'django/db/models/lookups.py@5.2.17 L461-476 (IntegerFieldOverflow: `if max_value is not None and rhs > max_value: raise self.overflow_exception`, EmptyResultSet) and L491-493 (IntegerFieldExact)',
    'django/db/backends/sqlite3/operations.py@5.2.17 L383-392: integer_field_range: (-9223372036854775808, 9223372036854775807)',
  ],
  async adjust(state, ctx) {
    const { request } = state;
    if (!['GET', 'HEAD'].includes(request.method) || !isDeskList(request.path)) return null;
    const { path, query } = splitPath(request.path);
    const value = lastValue(query, 'floor');
    if (value === undefined || query === null) return null;
    const n = decimalToInt(value);
    if (n === null || (n >= INT64_MIN && n <= INT64_MAX)) return null;
    // only where the query ran: another filter's 400, or django-filter's own MaxValueValidator(1e50)
    // (django_filters/filters.py@23.1 L378-382, as @25.2), come first in both versions
    if (state.answer.status !== 500) return null;
    const req = { ...request, path: `${path}?${replaceLastParam(query, 'floor', 'floor=-9223372036854775808')}` };
    const answer = await ctx.reference(req);
    return { request: req, answer };
  },
};

const BOOLEAN_CASE: DesignerAllowEntry = {
  id: 'drf-3.15-boolean-case-insensitive',
  summary:
    'BooleanField reads its string values case-sensitively in DRF 3.14 (listed spellings only: "tRuE", "YeS", "oFf", "FaLsE" are "Must be a valid boolean.") and case-insensitively from DRF 3.15. The reference is asked the same write with those values lower-cased (the original was refused: nothing was written).',
  older: [
    'rest_framework/fields.py@3.14.0 L674-690 (TRUE_VALUES / FALSE_VALUES: listed spellings) and L692-702 (to_internal_value: `if data in self.TRUE_VALUES`)',
  ],
  newer: [
    'rest_framework/fields.py@3.16.1 L665-686 (lower-case sets) and L694-710 (`_lower_if_str`; `if self._lower_if_str(data) in self.TRUE_VALUES`); the same @3.15.0 L667-710',
  ],
  async adjust(state, ctx) {
    const { request, answer } = state;
    if (!['POST', 'PUT', 'PATCH'].includes(request.method) || answer.status !== 400 || request.body === undefined)
      return null;
    if (!/^\/api\/v1\/desk(\/[^/?]+)?$/.test(splitPath(request.path).path)) return null;
    let body: string | null = null;
    const type = mediaType(request);
    if (type === 'application/json') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(request.body);
      } catch {
        return null;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
      const obj = parsed as Record<string, unknown>;
      let changed = false;
      for (const k of Object.keys(obj)) {
        const v = obj[k];
        if (BOOLEAN_FIELDS.has(k) && newlyBoolean(v)) {
          obj[k] = v.toLowerCase();
          changed = true;
        }
      }
      if (changed) body = JSON.stringify(obj);
    } else if (type === 'application/x-www-form-urlencoded') {
      let changed = false;
      const parts = request.body.split('&').map((part) => {
        const [k, v] = parseQuery(part)[0]
          ? [parseQuery(part)[0]?.key, parseQuery(part)[0]?.value]
          : [undefined, undefined];
        if (k !== undefined && BOOLEAN_FIELDS.has(k) && newlyBoolean(v)) {
          changed = true;
          return `${part.slice(0, part.indexOf('='))}=${encodeURIComponent(v.toLowerCase())}`;
        }
        return part;
      });
      if (changed) body = parts.join('&');
    }
    if (body === null) return null;
    const req = { ...request, body };
    return { request: req, answer: await ctx.reference(req) };
  },
};

export const DESIGNER_ALLOW_LIST: readonly DesignerAllowEntry[] = [
  // rewrites
  reuse('drf-3.15-empty-page-is-page-1'),
  reuse('django-5.2-integer-pk-out-of-range'),
  INTEGER_FILTER_OVERFLOW,
  SEARCH_SMART_SPLIT,
  BOOLEAN_CASE,
  // edits of the answer
  SEARCH_NULL_CHARACTER,
  reuse('drf-3.15-http404-keeps-django-message'),
  reuse('django-5.2-error-page-charset'),
];
