import { DJANGO_HEADERS } from '../django/http.js';
import { stubProblem } from '../errors.js';
import type { CoreAnswer } from '../request.js';

/** The stub's own path that puts written state back to the snapshot's (outside the service's paths). */
export const RESET_PATH = '/__stub/reset';

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
