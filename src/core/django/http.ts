/**
 * What Django itself sends around a DRF view, with DEBUG off: the headers its middleware adds
 * and its own error pages (django/views/defaults.py).
 */

/**
 * Headers on every answer: SecurityMiddleware (Django 4.0+ adds COOP) and XFrameOptionsMiddleware,
 * with the deployment's X_FRAME_OPTIONS (SAMEORIGIN).
 */
export const DJANGO_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-frame-options': 'SAMEORIGIN',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
});

/** django/views/defaults.py ERROR_PAGE_TEMPLATE (the same from Django 3.2 to 5.2). */
function errorPage(title: string, details: string): string {
  return `\n<!doctype html>\n<html lang="en">\n<head>\n  <title>${title}</title>\n</head>\n<body>\n  <h1>${title}</h1><p>${details}</p>\n</body>\n</html>\n`;
}

/** The pages Django answers itself, before or around any view, as `text/html`. */
export const DJANGO_PAGES = {
  /** `page_not_found`: a path no URL pattern matches. */
  404: errorPage('Not Found', 'The requested resource was not found on this server.'),
  /** `bad_request`: a Host that fails validation (DisallowedHost), before any view. */
  400: errorPage('Bad Request (400)', ''),
  /** `server_error`: an exception outside DRF's handler. */
  500: errorPage('Server Error (500)', ''),
} as const;

// Django 4.0+ lets HttpResponse default the type of its error pages: text/html; charset=utf-8.
export const HTML_TYPE = 'text/html; charset=utf-8';
export const JSON_TYPE = 'application/json';

/**
 * The method as WSGIRequest reads it (`REQUEST_METHOD.upper()`), without the call where it would
 * change nothing: every unit up to `Z` (what Node's parser hands over: upper-case ASCII).
 */
export function requestMethod(method: string): string {
  for (let i = 0; i < method.length; i++) if (method.charCodeAt(i) > 0x5a) return method.toUpperCase();
  return method;
}
