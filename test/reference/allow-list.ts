// Known version differences between the reference (Debian's Django 3.2.25 + DRF 3.14.0) and what the
// stub imitates (DRF 3.16 on Django 5.2 LTS). Each entry turns the reference's answer into the answer
// the newer versions give, and cites the source lines of both versions that prove it:
//   DRF: github.com/encode/django-rest-framework at tags 3.14.0 (identical to Debian's
//        python3-djangorestframework 3.14.0-2+deb12u1 in the files cited), 3.15.0 and 3.16.1;
//   Django: 3.2.25 as Debian ships it (python3-django 3:3.2.25-0+deb12u7, /usr/lib/python3/dist-packages/django)
//        and 5.2.17 (the Django-5.2.17 wheel, i.e. tag 5.2.17 of github.com/django/django).
// Nothing else belongs here: a difference that is not a version difference is a stub bug.
//
// Entries apply in order. Rewrites (ask the reference a request that is equivalent under the newer
// versions) come first; edits of the answer (a message, a header) after.
import { MODEL_OF, type CorpusRequest, SERVERS } from './corpus.js';
import type { Answer } from './send.js';

export interface AllowState {
  /** The request whose reference answer `answer` is (the corpus request, or a rewrite of it). */
  request: CorpusRequest;
  answer: Answer;
}

export interface AllowContext {
  /** Sends a request to the reference deployment of the same configuration. */
  reference(req: CorpusRequest): Promise<Answer>;
}

export interface AllowEntry {
  id: string;
  /** The difference, in one sentence. */
  summary: string;
  /** Source lines of the older versions (the reference). */
  older: string[];
  /** Source lines of the newer versions (what the stub imitates). */
  newer: string[];
  /** The newer versions' answer, or null when the entry does not apply to this request. */
  adjust(state: AllowState, ctx: AllowContext): Promise<AllowState | null>;
}

// --- Python and Django semantics the entries need -------------------------------------------------

/** Percent-decoding as Python's unquote (UTF-8, invalid sequences replaced). */
function unquote(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const m = /^%([0-9a-fA-F]{2})/.exec(s.slice(i, i + 3));
    if (m?.[1]) {
      bytes.push(parseInt(m[1], 16));
      i += 2;
    } else bytes.push(...Buffer.from(s[i] as string, 'utf8'));
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Uint8Array.from(bytes));
}

/** A query string as Django's QueryDict parses it: `&`-separated, blank values kept, `+` is a space. */
export function parseQuery(query: string): { raw: string; key: string; value: string }[] {
  if (!query) return [];
  return query
    .split('&')
    .filter((p) => p !== '')
    .map((raw) => {
      const i = raw.indexOf('=');
      const [k, v] = i < 0 ? [raw, ''] : [raw.slice(0, i), raw.slice(i + 1)];
      return { raw, key: unquote(k.replace(/\+/g, ' ')), value: unquote(v.replace(/\+/g, ' ')) };
    });
}

function splitPath(path: string): { path: string; query: string | null } {
  const i = path.indexOf('?');
  return i < 0 ? { path, query: null } : { path: path.slice(0, i), query: path.slice(i + 1) };
}

/** Python's int(str): surrounding whitespace, a sign, decimal digits of any script, single underscores between digits. */
export function pythonInt(s: string): bigint | null {
  const m = /^\s*([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)\s*$/u.exec(s);
  if (!m) return null;
  let n = 0n;
  for (const ch of (m[2] as string).replace(/_/g, '')) {
    let cp = ch.codePointAt(0) as number;
    let zero = cp;
    while (zero > 0 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    cp = (cp - zero) % 10;
    n = n * 10n + BigInt(cp);
  }
  return m[1] === '-' ? -n : n;
}

const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

/**
 * A detail route of DRF's router as the reference registers it (`^desk/(?P<pk>[^/.]+)$` and its
 * format-suffix twin `^desk/(?P<pk>[^/.]+)\.(?P<format>[a-z0-9]+)/?$`), on the percent-decoded path.
 */
function detailRoute(
  rawPath: string,
): { resource: string; pk: string; suffix: string | undefined; rebuild(pk: string): string } | null {
  const { path, query } = splitPath(rawPath);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  const m = /^\/api\/v1\/([a-z-]+)\/([^/.]+)(?:\.([a-z0-9]+)\/?)?$/.exec(decoded);
  if (!m?.[1] || !m[2] || !MODEL_OF.has(m[1])) return null;
  const [, resource, pk, suffix] = m;
  return {
    resource,
    pk,
    suffix,
    rebuild: (newPk) => `/api/v1/${resource}/${newPk}${suffix ? `.${suffix}` : ''}${query === null ? '' : `?${query}`}`,
  };
}

/** The format DRF negotiates with: the URL suffix, else the last `format` query value (DRF negotiation.py select_renderer). */
function requestedFormat(rawPath: string, suffix: string | undefined): string | undefined {
  if (suffix) return suffix;
  const params = parseQuery(splitPath(rawPath).query ?? '').filter((p) => p.key === 'format');
  return params.length ? (params[params.length - 1] as { value: string }).value : undefined;
}

function withContentLength(answer: Answer, body: string, method: string): Answer {
  const headers = { ...answer.headers };
  if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(body, 'utf8'));
  return { ...answer, headers, body: method === 'HEAD' ? '' : body };
}

// --- The entries --------------------------------------------------------------------------------

export const ALLOW_LIST: readonly AllowEntry[] = [
  {
    id: 'drf-3.15-empty-page-is-page-1',
    summary:
      'An empty `page=` (the last page value empty) is 404 "Invalid page." in DRF 3.14 and page 1 from DRF 3.15: the reference is asked the same request with `page=1` instead.',
    older: [
      'rest_framework/pagination.py@3.14.0 L218-222: get_page_number: `page_number = request.query_params.get(self.page_query_param, 1)` ("" stays "", Paginator.validate_number fails: 404 "Invalid page.")',
    ],
    newer: [
      'rest_framework/pagination.py@3.15.0 L225-229 and @3.16.1 L224-228: get_page_number: `page_number = request.query_params.get(self.page_query_param) or 1`',
    ],
    async adjust(state, ctx) {
      const { path, query } = splitPath(state.request.path);
      if (query === null) return null;
      const params = parseQuery(query);
      const pages = params.filter((p) => p.key === 'page');
      const last = pages[pages.length - 1];
      if (!last || last.value !== '') return null;
      const i = params.lastIndexOf(last);
      const rewritten = query
        .split('&')
        .filter((p) => p !== '')
        .map((p, j) => (j === i ? 'page=1' : p))
        .join('&');
      const request = { ...state.request, path: `${path}?${rewritten}` };
      return { request, answer: await ctx.reference(request) };
    },
  },
  {
    id: 'django-5.2-x-forwarded-proto-first-value',
    summary:
      'With SECURE_PROXY_SSL_HEADER, a comma-separated X-Forwarded-Proto ("https, http") is compared whole in Django 3.2 (so: http) and by its first value in Django 5.2 (so: https): the reference is asked with the first value alone.',
    older: [
      "django/http/request.py@3.2.25 L266-268: `header_value = self.META.get(header)` … `return 'https' if header_value == secure_value else 'http'`",
    ],
    newer: [
      'django/http/request.py@5.2.17 L316-319: `header_value, *_ = header_value.split(",", 1)` … `return "https" if header_value.strip() == secure_value else "http"`',
    ],
    async adjust(state, ctx) {
      if (!SERVERS[state.request.server].trustProxy) return null;
      const values = state.request.headers
        .filter(([k]) => k.toLowerCase() === 'x-forwarded-proto')
        .map(([, v]) => v.trim());
      // wsgiref (like gunicorn) joins repeated headers with ','
      const joined = values.join(',');
      if (!values.length || !joined.includes(',')) return null;
      const first = (joined.split(',', 1)[0] as string).trim();
      const headers = state.request.headers.filter(([k]) => k.toLowerCase() !== 'x-forwarded-proto');
      headers.push(['X-Forwarded-Proto', first]);
      const request = { ...state.request, headers };
      return { request, answer: await ctx.reference(request) };
    },
  },
  {
    id: 'django-5.2-integer-pk-out-of-range',
    summary:
      'An integer pk outside the 64-bit range of the BigAutoField (99999999999999999999) raises OverflowError in Django 3.2 on SQLite (a 500, DRF 3.14 does not catch it), and in Django 5.2 the lookup matches nothing (DoesNotExist: 404): the reference is asked with an absent in-range pk (0) instead.',
    older: [
      'django/db/models/lookups.py@3.2.25 L350-368: IntegerField lookups only round floats; no range check, so sqlite3 raises OverflowError("Python int too large to convert to SQLite INTEGER")',
      "rest_framework/generics.py@3.14.0 L18-21: get_object_or_404 catches only (TypeError, ValueError, ValidationError): the OverflowError becomes Django's HTML 500",
    ],
    newer: [
      'django/db/models/lookups.py@5.2.17 L461-476 (IntegerFieldOverflow: `if max_value is not None and rhs > max_value: raise self.overflow_exception`, EmptyResultSet) and L491-493 (IntegerFieldExact registered on IntegerField)',
      'django/db/backends/sqlite3/operations.py@5.2.17 L383-392: integer_field_range: (-9223372036854775808, 9223372036854775807)',
      'django/shortcuts.py@5.2.17 L89-94: DoesNotExist → Http404("No %s matches the given query.")',
    ],
    async adjust(state, ctx) {
      const route = detailRoute(state.request.path);
      if (!route) return null;
      const n = pythonInt(route.pk);
      if (n === null || (n >= BIGINT_MIN && n <= BIGINT_MAX)) return null;
      const request = { ...state.request, path: route.rebuild('0') };
      return { request, answer: await ctx.reference(request) };
    },
  },
  {
    id: 'drf-3.15-http404-keeps-django-message',
    summary:
      'An absent object (an integer pk no row has) is 404 {"detail":"Not found."} in DRF 3.14 and {"detail":"No <Model> matches the given query."} from DRF 3.15, which keeps the message of Django\'s Http404. (A pk that is no integer, `abc`, stays "Not found.": DRF raises a bare Http404 there.)',
    older: [
      'rest_framework/views.py@3.14.0 L81-82: exception_handler: `if isinstance(exc, Http404): exc = exceptions.NotFound()`',
      "django/shortcuts.py@3.2.25 L75-78: `raise Http404('No %s matches the given query.' % queryset.model._meta.object_name)`",
    ],
    newer: [
      'rest_framework/views.py@3.15.0 L81-82 and @3.16.1 L82-83: `if isinstance(exc, Http404): exc = exceptions.NotFound(*(exc.args))`',
      'django/shortcuts.py@5.2.17 L89-94: `raise Http404("No %s matches the given query." % queryset.model._meta.object_name)`',
      'rest_framework/generics.py@3.16.1 L18-21 (as @3.14.0): a ValueError (pk `abc`) raises a bare `Http404`, so "Not found." there',
    ],
    async adjust(state, ctx) {
      const route = detailRoute(state.request.path);
      if (
        !route ||
        state.answer.status !== 404 ||
        !/^application\/json/.test(state.answer.headers['content-type'] ?? '')
      )
        return null;
      const format = requestedFormat(state.request.path, route.suffix);
      if (format !== undefined && !['', 'api', 'json'].includes(format)) return null; // 404 of content negotiation, not of the lookup
      if (pythonInt(route.pk) === null) return null;
      const body =
        state.request.method === 'HEAD'
          ? (await ctx.reference({ ...state.request, method: 'GET' })).body
          : state.answer.body;
      if (!/^\{\s*"detail":\s*"Not found\."\s*\}$/.test(body)) return null;
      const model = MODEL_OF.get(route.resource) as string;
      const newBody = body.replace('"Not found."', JSON.stringify(`No ${model} matches the given query.`));
      return { request: state.request, answer: withContentLength(state.answer, newBody, state.request.method) };
    },
  },
  {
    id: 'django-5.2-error-page-charset',
    summary:
      "Django's own HTML error pages (400, 404, 500 with DEBUG off and no template) are `Content-Type: text/html` in Django 3.2 and `text/html; charset=utf-8` in Django 5.2 (the explicit content_type was dropped).",
    older: [
      "django/views/defaults.py@3.2.25 L75-76 (page_not_found: `content_type = 'text/html'`), L93-96 (server_error: `content_type='text/html'`), L114-117 (bad_request: `content_type='text/html'`)",
    ],
    newer: [
      'django/views/defaults.py@5.2.17 L79 (`return HttpResponseNotFound(body)`), L96-98 (server_error), L117-119 (bad_request): no content_type',
      'django/http/response.py@5.2.17 L122-125: `if content_type is None: content_type = f"text/html; charset={self.charset}"`',
    ],
    async adjust(state) {
      const a = state.answer;
      if (a.headers['content-type'] !== 'text/html' || ![400, 404, 500].includes(a.status)) return null;
      if (state.request.method !== 'HEAD' && !a.body.startsWith('\n<!doctype html>')) return null;
      return {
        request: state.request,
        answer: { ...a, headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' } },
      };
    },
  },
];
