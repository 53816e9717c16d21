import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DJANGO_HEADERS } from '../../../src/core/django/http.js';
import {
  detailBody,
  DJANGO_ERRORS,
  djangoPage,
  DRF_ERRORS,
  FIELD_ERRORS,
  fieldError,
  FRONT_PAGES,
  frontPage,
  gatewayPage,
  methodNotAllowedDetail,
  noMatchDetail,
  STUB_PROBLEMS,
  stubProblem,
} from '../../../src/core/errors.js';
import { ROOT } from '../../cli-helpers.js';
import { errorsPage } from '../../../scripts/docs.js';

describe('the error catalogue', () => {
  it.each(Object.entries(DRF_ERRORS))('%s has a status, a detail and a documentation line', (_code, e) => {
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.status).toBeLessThan(600);
    expect(e.detail).toMatch(/\.$/);
    expect(e.doc.length).toBeGreaterThan(20);
  });

  it.each(Object.entries(DJANGO_ERRORS))("%s is one of Django's own pages", (_code, e) => {
    expect(e.page).toContain('<!doctype html>');
    expect(e.doc.length).toBeGreaterThan(20);
  });

  it('docs/errors.md is the catalogue as it is now (run `npm run docs`)', async () => {
    expect(await readFile(`${ROOT}docs/errors.md`, 'utf8')).toBe(errorsPage());
  });

  it('the page names every error, with its body', () => {
    const page = errorsPage();
    for (const [code, e] of Object.entries(DRF_ERRORS)) {
      expect(page).toContain(`\`${code}\``);
      expect(page).toContain(e.detail);
    }
    for (const code of Object.keys(DJANGO_ERRORS)) expect(page).toContain(`\`${code}\``);
    for (const code of Object.keys(FRONT_PAGES)) expect(page).toContain(`\`${code}\``);
    for (const code of Object.keys(FIELD_ERRORS)) expect(page).toContain(`\`${code}\``);
    for (const code of Object.keys(STUB_PROBLEMS)) expect(page).toContain(`\`${code}\``);
  });
});

describe('the texts and answers the catalogue makes', () => {
  it.each([
    ['POST', 'Method "POST" not allowed.'],
    ['BREW', 'Method "BREW" not allowed.'],
  ])("methodNotAllowedDetail(%s) is DRF's MethodNotAllowed text", (method, want) => {
    expect(methodNotAllowedDetail(method)).toBe(want);
  });

  it.each<[string, string, Record<string, string | number>, string]>([
    ['one name', FIELD_ERRORS.MAX_LENGTH, { max_length: 10 }, 'Ensure this field has no more than 10 characters.'],
    [
      'two names',
      FIELD_ERRORS.UNIQUE,
      { model_name: 'desk', field_label: 'number' },
      'desk with this number already exists.',
    ],
    [
      'a value holding braces is not read again',
      FIELD_ERRORS.INVALID_CHOICE,
      { input: '{input}' },
      '"{input}" is not a valid choice.',
    ],
    [
      'a name its values have only by their prototype stays',
      '{constructor} {toString}',
      {},
      '{constructor} {toString}',
    ],
    [
      'a name not given stays',
      FIELD_ERRORS.SELECT_A_VALID_CHOICE,
      {},
      'Select a valid choice. {value} is not one of the available choices.',
    ],
  ])('fieldError: %s', (_name, message, values, want) => {
    expect(fieldError(message, values)).toBe(want);
  });

  it('noMatchDetail names the model as get_object_or_404 does', () => {
    expect(noMatchDetail('Desk')).toBe('No Desk matches the given query.');
  });

  it.each([
    ['plain', 'Not found.', '{"detail":"Not found."}'],
    ['quotes and non-ASCII as they are', 'é "x" \\', '{"detail":"é \\"x\\" \\\\"}'],
    ['U+2028 and U+2029 escaped, as JSONRenderer does', 'a\u2028b\u2029c', '{"detail":"a\\u2028b\\u2029c"}'],
  ])('detailBody: %s', (_name, detail, want) => {
    expect(detailBody(detail)).toBe(want);
  });

  it.each(Object.entries(DJANGO_ERRORS))("djangoPage(%s): its status, Django's headers, the page as HTML", (_c, e) => {
    expect(djangoPage(e)).toEqual({
      status: e.status,
      headers: { ...DJANGO_HEADERS, 'content-type': 'text/html; charset=utf-8' },
      body: e.page,
    });
  });

  it('stubProblem: RFC 9457, its status in the body too, extra members after', () => {
    const a = stubProblem(STUB_PROBLEMS.IMPOSSIBLE_SCENARIO, 'no such code', { available: ['200'] }, 422);
    expect(a.status).toBe(422);
    expect(a.headers).toEqual({ ...DJANGO_HEADERS, 'content-type': 'application/problem+json' });
    expect(a.body).toBe(
      '{"type":"about:blank","title":"Impossible scenario","status":422,"detail":"no such code","available":["200"]}',
    );
    expect(JSON.parse(stubProblem({ title: 't', status: 400, doc: '' }, 'd').body)).toEqual({
      type: 'about:blank',
      title: 't',
      status: 400,
      detail: 'd',
    });
  });

  it("frontPage: the HTTP server's 431, exactly as it answered before Django", () => {
    expect(frontPage(FRONT_PAGES.HEADER_FIELDS_TOO_LARGE)).toEqual({
      status: 431,
      headers: { 'content-type': 'text/html' },
      body: '<h1>Request Header Fields Too Large (431)</h1>',
    });
  });

  it.each([
    [502, '502 Bad Gateway'],
    [503, '503 Service Temporarily Unavailable'],
    [504, '504 Gateway Time-out'],
  ] as const)("gatewayPage(%i): nginx's page, none of Django's headers", (status, title) => {
    const a = gatewayPage(status);
    expect(a.status).toBe(status);
    expect(a.headers).toEqual({ 'content-type': 'text/html' });
    expect(a.body).toBe(
      `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
    );
  });
});

describe("each entry's answer, as DRF and Django give it", () => {
  // Recorded from DRF 3.14 (exceptions.py default_detail, authentication.py, pagination.py) and
  // Django 3.2 (views/defaults.py ERROR_PAGE_TEMPLATE), written here apart from the catalogue.
  const drf: [string, number, string][] = [
    ['NOT_FOUND', 404, 'Not found.'],
    ['INVALID_PAGE', 404, 'Invalid page.'],
    ['NOT_ACCEPTABLE', 406, 'Could not satisfy the request Accept header.'],
    ['NOT_AUTHENTICATED', 401, 'Authentication credentials were not provided.'],
    ['INVALID_TOKEN', 401, 'Invalid token.'],
    ['TOKEN_NO_CREDENTIALS', 401, 'Invalid token header. No credentials provided.'],
    ['TOKEN_SPACES', 401, 'Invalid token header. Token string should not contain spaces.'],
    ['TOKEN_INVALID_CHARACTERS', 401, 'Invalid token header. Token string should not contain invalid characters.'],
    ['INVALID_USERNAME_PASSWORD', 401, 'Invalid username/password.'],
    ['BASIC_NO_CREDENTIALS', 401, 'Invalid basic header. No credentials provided.'],
    ['BASIC_SPACES', 401, 'Invalid basic header. Credentials string should not contain spaces.'],
    ['BASIC_NOT_BASE64', 401, 'Invalid basic header. Credentials not correctly base64 encoded.'],
    ['PERMISSION_DENIED', 403, 'You do not have permission to perform this action.'],
  ];
  const page = (title: string, details: string) =>
    `\n<!doctype html>\n<html lang="en">\n<head>\n  <title>${title}</title>\n</head>\n<body>\n  <h1>${title}</h1><p>${details}</p>\n</body>\n</html>\n`;
  const django: [string, number, string][] = [
    ['PAGE_NOT_FOUND', 404, page('Not Found', 'The requested resource was not found on this server.')],
    ['BAD_REQUEST', 400, page('Bad Request (400)', '')],
    ['SERVER_ERROR', 500, page('Server Error (500)', '')],
  ];

  it('the tables name every entry of the catalogue', () => {
    expect(drf.map(([code]) => code)).toEqual(Object.keys(DRF_ERRORS));
    expect(django.map(([code]) => code)).toEqual(Object.keys(DJANGO_ERRORS));
  });

  it.each(drf)('%s: %i {"detail": %j}', (code, status, detail) => {
    const e = DRF_ERRORS[code as keyof typeof DRF_ERRORS];
    expect([e.status, detailBody(e.detail)]).toEqual([status, JSON.stringify({ detail })]);
    // A 401 of an authentication class: 403 where the first class sends no challenge.
    expect('authentication' in e).toBe(status === 401);
  });

  it.each(django)("%s: %i, Django's page", (code, status, body) => {
    const a = djangoPage(DJANGO_ERRORS[code as keyof typeof DJANGO_ERRORS]);
    expect([a.status, a.body]).toEqual([status, body]);
  });
});
