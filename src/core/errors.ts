import { DJANGO_HEADERS, DJANGO_PAGES, HTML_TYPE } from './django/http.js';
import type { CoreAnswer } from './request.js';
import { withMembers } from './members.js';
import { drfJson } from './prepared-items.js';

/**
 * The one error catalogue. Three families:
 * - `drf`: answers of a DRF view, in its shape `{"detail": ...}` (rest_framework/exceptions.py);
 * - `django`: pages Django answers itself, before or around any view, as `text/html`
 *   (django/views/defaults.py, DEBUG off);
 * - `stub`: faults of the stub itself (an impossible scenario, a rejected request), told plainly
 *   as `application/problem+json` (RFC 9457), and the stub's own paths.
 */
export interface DrfError {
  readonly family: 'drf';
  readonly status: number;
  readonly detail: string;
  readonly doc: string;
  /**
   * NotAuthenticated or AuthenticationFailed: 401 with `WWW-Authenticate` when the first
   * authentication class has a header to send, else 403 (APIView.handle_exception).
   */
  readonly authentication?: true;
}

export interface DjangoPage {
  readonly family: 'django';
  readonly status: number;
  readonly page: string;
  readonly doc: string;
}

export const DRF_ERRORS = {
  NOT_FOUND: {
    family: 'drf',
    status: 404,
    detail: 'Not found.',
    doc: 'DRF NotFound: an unknown `format` (query or `.json` suffix), a pk its field cannot read (`abc` for an integer pk).',
  },
  INVALID_PAGE: {
    family: 'drf',
    status: 404,
    detail: 'Invalid page.',
    doc: 'DRF PageNumberPagination: `page` not a number, below 1, or past the last page.',
  },
  NOT_ACCEPTABLE: {
    family: 'drf',
    status: 406,
    detail: 'Could not satisfy the request Accept header.',
    doc: 'DRF content negotiation, before any other check of the view: an `Accept` no JSON renderer satisfies (`text/html`, `application/xml`).',
  },
  NOT_AUTHENTICATED: {
    family: 'drf',
    status: 401,
    authentication: true,
    detail: 'Authentication credentials were not provided.',
    doc: "DRF NotAuthenticated: an operation whose `security` does not list `{}` (IsAuthenticated), asked without credentials; 401 with `WWW-Authenticate` when the spec's first security scheme is a token, else 403.",
  },
  INVALID_TOKEN: {
    family: 'drf',
    status: 401,
    authentication: true,
    detail: 'Invalid token.',
    doc: 'DRF TokenAuthentication: `Authorization: Token <key>` with a key `--tokens` does not list (any key is valid without the option).',
  },
  TOKEN_NO_CREDENTIALS: {
    family: 'drf',
    status: 401,
    authentication: true,
    detail: 'Invalid token header. No credentials provided.',
    doc: 'DRF TokenAuthentication: `Authorization: Token` without a key.',
  },
  TOKEN_SPACES: {
    family: 'drf',
    status: 401,
    authentication: true,
    detail: 'Invalid token header. Token string should not contain spaces.',
    doc: 'DRF TokenAuthentication: `Authorization: Token a b`.',
  },
  TOKEN_INVALID_CHARACTERS: {
    family: 'drf',
    status: 401,
    authentication: true,
    detail: 'Invalid token header. Token string should not contain invalid characters.',
    doc: 'DRF TokenAuthentication: a key whose bytes are not UTF-8.',
  },
  INVALID_USERNAME_PASSWORD: {
    family: 'drf',
    status: 401,
    authentication: true,
    detail: 'Invalid username/password.',
    doc: "DRF BasicAuthentication (where the spec declares `http basic`): Basic credentials the stub's user table (empty) does not hold.",
  },
  BASIC_NO_CREDENTIALS: {
    family: 'drf',
    status: 401,
    authentication: true,
    detail: 'Invalid basic header. No credentials provided.',
    doc: 'DRF BasicAuthentication: `Authorization: Basic` without credentials.',
  },
  BASIC_SPACES: {
    family: 'drf',
    status: 401,
    authentication: true,
    detail: 'Invalid basic header. Credentials string should not contain spaces.',
    doc: 'DRF BasicAuthentication: `Authorization: Basic a b`.',
  },
  BASIC_NOT_BASE64: {
    family: 'drf',
    status: 401,
    authentication: true,
    detail: 'Invalid basic header. Credentials not correctly base64 encoded.',
    doc: 'DRF BasicAuthentication: credentials that are not base64 of `user:password`.',
  },
  PERMISSION_DENIED: {
    family: 'drf',
    status: 403,
    detail: 'You do not have permission to perform this action.',
    doc: 'DRF PermissionDenied (`Prefer: code=403` where no 403 is declared).',
  },
} as const satisfies Record<string, DrfError>;

export const DJANGO_ERRORS = {
  PAGE_NOT_FOUND: {
    family: 'django',
    status: 404,
    page: DJANGO_PAGES[404],
    doc: "Django's page_not_found: a path no route matches (`/api/v1/nosuch`, `/api/v1/desk/`, `/api/v1/desk/3/`).",
  },
  BAD_REQUEST: {
    family: 'django',
    status: 400,
    page: DJANGO_PAGES[400],
    doc: "Django's bad_request (DisallowedHost): a Host (or trusted X-Forwarded-Host) that is not a valid host[:port], or that `--allowed-hosts` does not list; also a request the HTTP layer cannot read.",
  },
  SERVER_ERROR: {
    family: 'django',
    status: 500,
    page: DJANGO_PAGES[500],
    doc: "Django's server_error: `Prefer: code=500`; otherwise only a defect of the stub, which is logged.",
  },
} as const satisfies Record<string, DjangoPage>;

/**
 * The messages of a 400's field errors (`{"number": ["This field is required."]}`, or a list for
 * search terms): DRF's fields' `default_error_messages` (rest_framework/fields.py), Django's
 * validators (django/core/validators.py) and the form fields django-filter reads a query
 * parameter with (django/forms/fields.py). A `{name}` is filled in by `fieldError`.
 */
export const FIELD_ERRORS = {
  REQUIRED: 'This field is required.',
  NULL: 'This field may not be null.',
  BLANK: 'This field may not be blank.',
  INVALID_INTEGER: 'A valid integer is required.',
  INVALID_NUMBER: 'A valid number is required.',
  STRING_TOO_LARGE: 'String value too large.',
  INVALID_BOOLEAN: 'Must be a valid boolean.',
  INVALID_STRING: 'Not a valid string.',
  INVALID_CHOICE: '"{input}" is not a valid choice.',
  NOT_A_LIST: 'Expected a list of items but got type "{input_type}".',
  NOT_A_DICT: 'Expected a dictionary of items but got type "{input_type}".',
  INVALID_DATE: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  INVALID_DATETIME:
    'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  INVALID_VALUE: 'Enter a valid value.',
  INVALID_EMAIL: 'Enter a valid email address.',
  INVALID_URL: 'Enter a valid URL.',
  INVALID_UUID: 'Must be a valid UUID.',
  MAX_LENGTH: 'Ensure this field has no more than {max_length} characters.',
  MIN_LENGTH: 'Ensure this field has at least {min_length} characters.',
  NULL_CHARACTERS: 'Null characters are not allowed.',
  SURROGATE_CHARACTERS: 'Surrogate characters are not allowed: U+{code_point}.',
  MAX_VALUE: 'Ensure this value is less than or equal to {limit_value}.',
  MIN_VALUE: 'Ensure this value is greater than or equal to {limit_value}.',
  ENTER_A_NUMBER: 'Enter a number.',
  SELECT_A_VALID_CHOICE: 'Select a valid choice. {value} is not one of the available choices.',
  UNIQUE: '{model_name} with this {field_label} already exists.',
  NO_DATA: 'No data provided',
  INVALID_DATA: 'Invalid data. Expected a dictionary, but got {datatype}.',
} as const;

/** A FIELD_ERRORS message with its `{name}`s filled in, as DRF's `fail()` formats one (`str.format`). */
export function fieldError(message: string, values: Readonly<Record<string, string | number>>): string {
  return message.replace(/\{(\w+)\}/g, (name, key: string) =>
    Object.hasOwn(values, key) ? String(values[key]) : name,
  );
}

/** JSONParser's text for a body it cannot read: `JSON parse error - Expecting value: line 1 column 1 (char 0)`. */
export function parseErrorDetail(message: string): string {
  return `JSON parse error - ${message}`;
}

/** MultiPartParser's text for a multipart body whose Content-Type names no boundary. */
export const MULTIPART_NO_BOUNDARY_DETAIL = 'Multipart form parse error - Invalid boundary in multipart: None';

/** DRF's UnsupportedMediaType text (415): `Unsupported media type "text/plain" in request.` */
export function unsupportedMediaTypeDetail(type: string): string {
  return `Unsupported media type "${type}" in request.`;
}

/** SessionAuthentication.enforce_csrf's text (403): `CSRF Failed: Referer checking failed - no Referer.` */
export function csrfFailedDetail(reason: string): string {
  return `CSRF Failed: ${reason}`;
}

/** DRF's MethodNotAllowed text: `Method "POST" not allowed.` */
export function methodNotAllowedDetail(method: string): string {
  return `Method "${method}" not allowed.`;
}

/** Django's get_object_or_404 text, kept by DRF 3.15+: `No Desk matches the given query.` */
export function noMatchDetail(modelName: string): string {
  return `No ${modelName} matches the given query.`;
}

/** DRF renders error bodies through JSONRenderer: compact JSON. */
export function detailBody(detail: string): string {
  return drfJson({ detail });
}

/** One of Django's own pages, as the service sends it. */
export function djangoPage(e: DjangoPage | { status: number; page: string }): CoreAnswer {
  return { status: e.status, headers: withMembers(DJANGO_HEADERS, { 'content-type': HTML_TYPE }), body: e.page };
}

/** A fault of the stub itself, or of a request to it: its title, and its status where no other is given. */
export interface StubProblem {
  readonly title: string;
  readonly status: number;
  readonly doc: string;
}

export const STUB_PROBLEMS = {
  IMPOSSIBLE_SCENARIO: {
    title: 'Impossible scenario',
    status: 400,
    doc: '`Prefer` (or a scenario set at `/__stub/scenarios`) asks for what the operation cannot answer: a code it does not declare, an example it does not have, generated items where its schema describes no field; `available` lists what it can.',
  },
  INVALID_REQUEST: {
    title: 'Invalid request',
    status: 400,
    doc: "`--validate-requests`: a query parameter its operation's declaration refuses (`validation` lists each); `since` of `GET /__stub/requests` not a whole number.",
  },
  INVALID_SCENARIO: {
    title: 'Invalid scenario',
    status: 400,
    doc: '`PUT /__stub/scenarios`: a body that is not JSON, or a rule that names no operation or asks what it cannot answer (none of the list is kept).',
  },
  SESSION_REFUSED: {
    title: 'Session refused',
    status: 400,
    doc: '`X-Stub-Session`: a name that is not 1 to 64 letters, digits, `.`, `_` or `-`; 503 when `--max-sessions` are open already.',
  },
  METHOD_NOT_ALLOWED: {
    title: 'Method not allowed',
    status: 405,
    doc: 'A path under `/__stub/` asked with a method it does not take, with `Allow`.',
  },
  CROSS_SITE_REFUSED: {
    title: 'Cross-site request refused',
    status: 403,
    doc: 'A write, or a request under `/__stub/`, from a page of an origin the CORS policy does not allow, sent without a preflight.',
  },
  HANDLER_BREAKS_SPEC: {
    title: 'Handler answer breaks the spec',
    status: 500,
    doc: "`--strict-handlers`: a handler answered what its operation's declaration refuses (`violations` lists why).",
  },
} as const satisfies Record<string, StubProblem>;

/** A fault of a request to the stub itself (a scenario that cannot be), RFC 9457. */
export function stubProblem(
  problem: StubProblem,
  detail: string,
  extra: Record<string, unknown> = {},
  status = problem.status,
): CoreAnswer {
  const { title } = problem;
  // RFC 9457: the body's `status` is the answer's own.
  return {
    status,
    headers: withMembers(DJANGO_HEADERS, { 'content-type': 'application/problem+json' }),
    body: JSON.stringify({ type: 'about:blank', title, status, detail, ...extra }),
  };
}

/** nginx's page for a gateway answer: `<title>` and `<h1>` the same. */
const nginxPage = (title: string) =>
  `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

/**
 * Pages of the servers around Django, which never sees these requests: `text/html`, none of
 * Django's headers. The HTTP server refuses a header section too large before any application
 * runs; the proxy in front of a deployment (nginx, the most common) answers when the application
 * does not.
 */
export const FRONT_PAGES = {
  HEADER_FIELDS_TOO_LARGE: {
    status: 431,
    page: '<h1>Request Header Fields Too Large (431)</h1>',
    doc: "The HTTP server, before Django: a request whose header section passes Node's limit (16 KiB); the connection is closed after it.",
  },
  BAD_GATEWAY: {
    status: 502,
    page: nginxPage('502 Bad Gateway'),
    doc: "`Prefer: code=502`: the proxy's page when the application does not answer.",
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    page: nginxPage('503 Service Temporarily Unavailable'),
    doc: "`Prefer: code=503`: the proxy's page when the application is not there.",
  },
  GATEWAY_TIMEOUT: {
    status: 504,
    page: nginxPage('504 Gateway Time-out'),
    doc: "`Prefer: code=504`: the proxy's page when the application answers too late.",
  },
} as const satisfies Record<string, { status: number; page: string; doc: string }>;

/** One of the pages of the servers around Django (FRONT_PAGES). */
export function frontPage(e: { status: number; page: string }): CoreAnswer {
  return { status: e.status, headers: { 'content-type': 'text/html' }, body: e.page };
}

/** `Prefer: code=502|503|504`: the proxy's page. */
export function gatewayPage(status: 502 | 503 | 504): CoreAnswer {
  return frontPage(
    status === 502
      ? FRONT_PAGES.BAD_GATEWAY
      : status === 503
        ? FRONT_PAGES.SERVICE_UNAVAILABLE
        : FRONT_PAGES.GATEWAY_TIMEOUT,
  );
}
