import { DJANGO_HEADERS } from '../django/http.js';
import type { HeaderGetter } from '../django/host.js';
import type { CoreAnswer } from '../request.js';

/**
 * The stub's own CORS, for a browser app on another origin (not the service's): the Origin
 * echoed with credentials on answers to a request that carries one, and preflights answered.
 * `Vary` stays the service's: these answers carry no freshness information (no Cache-Control,
 * Expires or validator), so no cache reuses one for another origin, and `Vary: Origin` would only
 * make them differ from what the service sends.
 */
export function withCors(answer: CoreAnswer, header: HeaderGetter): CoreAnswer {
  const origin = header('origin');
  if (origin === undefined || answer.headers['access-control-allow-origin'] !== undefined) return answer;
  return {
    ...answer,
    headers: {
      ...answer.headers,
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'Allow, Content-Length, Location, Vary',
    },
  };
}

/** Is this a CORS preflight (an OPTIONS with Origin and Access-Control-Request-Method)? */
export function isPreflight(method: string, header: HeaderGetter): boolean {
  return (
    method === 'OPTIONS' && header('origin') !== undefined && header('access-control-request-method') !== undefined
  );
}

/** The stub's answer to a preflight: every method, the headers asked for. */
export function preflight(header: HeaderGetter): CoreAnswer {
  const requested = header('access-control-request-headers');
  const headers: Record<string, string> = {
    ...DJANGO_HEADERS,
    'access-control-allow-origin': header('origin') ?? '*',
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
    'access-control-max-age': '600',
  };
  if (requested !== undefined) headers['access-control-allow-headers'] = requested;
  return { status: 204, headers, body: '' };
}
