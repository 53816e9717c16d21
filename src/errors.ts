/**
 * The one error catalogue. Two families:
 * - `service`: answers that imitate the Workplace Administration Service, in its (DRF) shape
 *   `{"detail": ...}` (rest_framework/exceptions.py, django/http/request.py);
 * - `mock`: faults of the stub itself (a bad scenario request, a rejected request), told plainly as
 *   `application/problem+json` (RFC 9457).
 */
export interface ServiceError {
  readonly family: 'service';
  readonly status: number;
  readonly detail: string;
  readonly doc: string;
}

export const SERVICE_ERRORS = {
  NOT_FOUND: {
    family: 'service',
    status: 404,
    detail: 'Not found.',
    doc: 'DRF Http404 / NotFound: an unknown path, an unknown `format`, a malformed pk.',
  },
  INVALID_PAGE: {
    family: 'service',
    status: 404,
    detail: 'Invalid page.',
    doc: 'DRF PageNumberPagination: `page` not a number, below 1, or past the last page.',
  },
  INVALID_HOST: {
    family: 'service',
    status: 400,
    detail: 'Invalid Host header.',
    doc: "Django's DisallowedHost: the Host (or trusted X-Forwarded-Host) is not a valid host[:port].",
  },
  DISALLOWED_HOST: {
    family: 'service',
    status: 400,
    detail: 'Host not allowed.',
    doc: "Django's DisallowedHost: a valid host that `--allowed-hosts` (ALLOWED_HOSTS) does not list.",
  },
  BAD_REQUEST: {
    family: 'service',
    status: 400,
    detail: 'Bad request.',
    doc: 'A request the HTTP layer cannot read (malformed url encoding, oversized headers, garbage).',
  },
  HEADERS_TOO_LARGE: {
    family: 'service',
    status: 431,
    detail: 'Request header fields too large.',
    doc: "Node's HTTP parser: the request line and headers exceed its limit (16 KiB), an oversized url included.",
  },
  SERVER_ERROR: {
    family: 'service',
    status: 500,
    detail: 'A server error occurred.',
    doc: 'DRF APIException default; the stub answers it only for a defect of its own, which is logged.',
  },
} as const satisfies Record<string, ServiceError>;

export type ServiceErrorCode = keyof typeof SERVICE_ERRORS;

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
  return JSON.stringify({ detail });
}

/** A fault in the spec or fixtures found while loading: where, and why. */
export interface LoadProblem {
  readonly file: string;
  /** A JSON pointer into the file, or `line:col` where the file could not be parsed. */
  readonly pointer: string;
  readonly reason: string;
}

export function formatProblem(p: LoadProblem): string {
  return `${p.file}${p.pointer ? ` at ${p.pointer}` : ''}: ${p.reason}`;
}

/** Thrown by spec and fixture loading with every problem found, never only the first. */
export class LoadError extends Error {
  readonly problems: readonly LoadProblem[];
  constructor(problems: readonly LoadProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'LoadError';
    this.problems = problems;
  }
}
