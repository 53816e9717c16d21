import { DJANGO_HEADERS } from '../django/http.js';
import { stubProblem } from '../errors.js';
import type { CoreAnswer } from '../request.js';

/** Where the stub's own paths live, outside the service's. */
export const STUB_PREFIX = '/__stub/';

/** The stub's own path that puts written state back to the snapshot's. */
export const RESET_PATH = '/__stub/reset';

/**
 * A CORS-simple write from a page of another origin (a cross-site form POST, a `text/plain`
 * fetch): refused before it changes anything. A write the stub accepts from a browser needs a
 * JSON body or a non-simple header, which a page of another origin cannot send without a
 * preflight the stub's CORS policy answers.
 */
export function crossSiteRefused(): CoreAnswer {
  return {
    ...stubProblem(
      'Cross-site request refused',
      'a write from a page of an origin the CORS policy does not allow, sent without a preflight (a form or text/plain body): send JSON, or allow the origin with --cors-origin',
    ),
    status: 403,
  };
}

/** `POST /__stub/reset`: every collection back to the snapshot's items; any other method is refused. */
export function resetAnswer(method: string, reset: () => void): CoreAnswer {
  if (method !== 'POST') {
    return {
      ...stubProblem(
        'Method not allowed',
        `${RESET_PATH} takes POST: it puts every collection back to the snapshot's items`,
      ),
      status: 405,
      headers: { ...DJANGO_HEADERS, 'content-type': 'application/problem+json', allow: 'POST' },
    };
  }
  reset();
  return { status: 204, headers: { ...DJANGO_HEADERS }, body: '' };
}
