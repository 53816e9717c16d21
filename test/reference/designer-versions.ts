// Version differences of the designer profile only: the reference runs it on Debian's Django 3.2.25
// + DRF 3.14.0, the stub imitates the deployment's newer versions (DRF 3.15+, on Django 4.2 and later
// where the lines cited are unchanged). The deployment profile (Django 4.2 + DRF 3.16.0 against the
// stub's DRF 3.15.2) needs none of these: its list, allow-list.ts, is empty. Each entry turns the
// reference's answer into the newer versions' and cites the source lines of both.
import type { AllowEntry } from './allow-list.js';
import { parseQuery, pythonInt } from './allow-list.js';
import { MODEL_OF } from './corpus.js';
import type { Answer } from './send.js';

function splitPath(path: string): { path: string; query: string | null } {
  const i = path.indexOf('?');
  return i < 0 ? { path, query: null } : { path: path.slice(0, i), query: path.slice(i + 1) };
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

export const DESIGNER_VERSION_ENTRIES: readonly AllowEntry[] = [
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
