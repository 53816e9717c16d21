// Writes the documentation generated from the code: `npm run docs`.
//   docs/errors.md   every answer of the error catalogue (src/core/errors.ts)
// A test fails when a generated page is stale (test/unit/docs.test.ts).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DJANGO_ERRORS, DRF_ERRORS } from '../src/core/errors.js';

const cell = (s: string) => s.replaceAll('|', '\\|');

/** docs/errors.md: the catalogue as tables, the service's answers first, then Django's pages. */
export function errorsPage(): string {
  const drf = Object.entries(DRF_ERRORS).map(([code, e]) => {
    const status = 'authentication' in e ? '401 or 403' : String(e.status);
    return `| ${status} | \`${cell(JSON.stringify({ detail: e.detail }))}\` | \`${code}\` | ${cell(e.doc)} |`;
  });
  const django = Object.entries(DJANGO_ERRORS).map(
    ([code, e]) => `| ${e.status} | ${/<h1>([^<]+)<\/h1>/.exec(e.page)?.[1] ?? ''} | \`${code}\` | ${cell(e.doc)} |`,
  );
  return [
    '<!-- Generated from src/core/errors.ts by `npm run docs`: do not edit. -->',
    '# Errors the stub answers',
    '',
    'Answers of a DRF view are in its shape, `{"detail": ...}`, `Content-Type: application/json`.',
    "An authentication failure is 401 with `WWW-Authenticate` when the spec's first security scheme",
    "is a token (TokenAuthentication), else 403 (DRF's `handle_exception`).",
    '',
    '| status | body | code | when |',
    '|---|---|---|---|',
    ...drf,
    '| 404 | `{"detail":"No Desk matches the given query."}` | `noMatchDetail` | an unknown pk: Django\'s text, kept by DRF 3.15+, naming the model (`x-model-name`, else the item schema) |',
    '| 405 | `{"detail":"Method \\"POST\\" not allowed."}` | `methodNotAllowedDetail` | a method the spec does not declare for the path, with `Allow` listing what it declares |',
    '',
    "Django's own pages (`text/html; charset=utf-8`), where Django answers before or around any view:",
    '',
    '| status | title | code | when |',
    '|---|---|---|---|',
    ...django,
    '',
    "The stub's own faults (an impossible scenario, `--validate-requests`, a handler's answer that",
    'breaks the spec with `--strict-handlers`) are `application/problem+json` (RFC 9457) with',
    '`title`, `detail` and what is available.',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = new URL('../docs/errors.md', import.meta.url);
  await writeFile(file, errorsPage());
  process.stdout.write(`written ${fileURLToPath(file)}\n`);
}
