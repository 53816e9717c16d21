// Writes the documentation generated from the code: `npm run docs`.
//   docs/errors.md   every answer of the error catalogue (src/core/errors.ts)
//   docs/cli.md      every command's own `--help` (src/cli/main.ts)
// A test fails when a generated page is stale (test/unit/core/errors.test.ts, test/unit/docs.test.ts).
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  csrfFailedDetail,
  DJANGO_ERRORS,
  DRF_ERRORS,
  FIELD_ERRORS,
  FRONT_PAGES,
  methodNotAllowedDetail,
  MULTIPART_NO_BOUNDARY_DETAIL,
  noMatchDetail,
  parseErrorDetail,
  STUB_PROBLEMS,
  unsupportedMediaTypeDetail,
} from '../src/core/errors.js';

const cell = (s: string) => s.replaceAll('|', '\\|');

/** docs/errors.md: the catalogue as tables, the service's answers first, then Django's pages. */
export function errorsPage(): string {
  const drf = Object.entries(DRF_ERRORS).map(([code, e]) => {
    const status = 'authentication' in e ? '401 or 403' : String(e.status);
    return `| ${status} | \`${cell(JSON.stringify({ detail: e.detail }))}\` | \`${code}\` | ${cell(e.doc)} |`;
  });
  // The texts DRF formats, each shown with an example.
  const texts: [number, string, string, string][] = [
    [
      400,
      parseErrorDetail('Expecting value: line 1 column 1 (char 0)'),
      'parseErrorDetail',
      "JSONParser: a body that is not JSON as Python's `json.loads` reads it, or not UTF-8",
    ],
    [
      400,
      MULTIPART_NO_BOUNDARY_DETAIL,
      'MULTIPART_NO_BOUNDARY_DETAIL',
      'MultiPartParser: `multipart/form-data` without a boundary',
    ],
    [
      403,
      csrfFailedDetail('Referer checking failed - no Referer.'),
      'csrfFailedDetail',
      "SessionAuthentication: an unsafe method of a logged-in session (`--sessions`) that fails CsrfViewMiddleware's checks",
    ],
    [
      404,
      noMatchDetail('Desk'),
      'noMatchDetail',
      "an unknown pk: Django's text, kept by DRF 3.15+, naming the model (`x-model-name`, else the item schema)",
    ],
    [
      405,
      methodNotAllowedDetail('POST'),
      'methodNotAllowedDetail',
      'a method the spec does not declare for the path, with `Allow` listing what it declares',
    ],
    [
      415,
      unsupportedMediaTypeDetail('text/plain'),
      'unsupportedMediaTypeDetail',
      'a body of a type no parser of the view reads (JSON, form, multipart)',
    ],
  ];
  const pages = (catalogue: Record<string, { status: number; page: string; doc: string }>) =>
    Object.entries(catalogue).map(
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
    ...texts.map(
      ([status, detail, code, doc]) => `| ${status} | \`${cell(JSON.stringify({ detail }))}\` | \`${code}\` | ${doc} |`,
    ),
    '',
    'Field errors: a 400 whose body holds each field\'s messages (`{"number": ["This field is required."]}`),',
    "the body's own under `non_field_errors`, a search's as a plain list; each `{name}` filled in:",
    '',
    '| message | code |',
    '|---|---|',
    ...Object.entries(FIELD_ERRORS).map(([code, message]) => `| ${cell(message)} | \`${code}\` |`),
    '',
    "Django's own pages (`text/html; charset=utf-8`), where Django answers before or around any view:",
    '',
    '| status | title | code | when |',
    '|---|---|---|---|',
    ...pages(DJANGO_ERRORS),
    '',
    "Pages of the servers around Django, which never sees these requests (`text/html`, none of Django's headers):",
    '',
    '| status | title | code | when |',
    '|---|---|---|---|',
    ...pages(FRONT_PAGES),
    '',
    "The stub's own faults and refusals are `application/problem+json` (RFC 9457): `type`, `title`,",
    '`status`, `detail`, then what the row names:',
    '',
    '| status | title | code | when |',
    '|---|---|---|---|',
    ...Object.entries(STUB_PROBLEMS).map(([code, p]) => `| ${p.status} | ${p.title} | \`${code}\` | ${cell(p.doc)} |`),
    '',
  ].join('\n');
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The commands of docs/cli.md, in its order: `[]` is `workplace-stub --help` (serve's options too). */
export const CLI_COMMANDS: readonly (readonly string[])[] = [
  [],
  ['snapshot'],
  ['check'],
  ['proxy'],
  ['record'],
  ['fixtures'],
  ['generate'],
  ['version'],
];

/** One command's `--help`, as a user sees it on a pipe (80 columns, no colour, no option from the environment). */
async function helpOf(args: readonly string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', ...args, '--help'],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } },
  );
  return stdout.trimEnd();
}

/** docs/cli.md: every command's `--help`, as the code prints it. */
export async function cliPage(): Promise<string> {
  const helps = await Promise.all(CLI_COMMANDS.map(helpOf));
  const sections = CLI_COMMANDS.map((args, i) => {
    const command = ['workplace-stub', ...args].join(' ');
    return [`## \`${command}\``, '', '```text', `$ ${command} --help`, helps[i], '```', ''].join('\n');
  });
  return [
    '<!-- Generated from src/cli/main.ts by `npm run docs`: do not edit. -->',
    '# Command line',
    '',
    'The `workplace-stub` command (`npx workplace-stub` where the package is installed; in this',
    'repository `npm start -- …` for `serve`, `npm run -s check -- …` for `check`, or',
    "`node dist/cli/main.js …`). Each section is the command's own `--help`;",
    '`workplace-stub serve --help` prints the options of the first section.',
    '',
    ...sections,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pages: [string, string][] = [
    ['../docs/errors.md', errorsPage()],
    ['../docs/cli.md', await cliPage()],
  ];
  for (const [name, text] of pages) {
    const file = new URL(name, import.meta.url);
    await writeFile(file, text);
    process.stdout.write(`written ${fileURLToPath(file)}\n`);
  }
}
