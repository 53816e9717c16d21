import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHandlers, placeIn } from '../../../src/load/handlers.js';
import { readOperations } from '../../../src/openapi/operations.js';
import { smallSpec } from './helpers.js';

const ok = { responses: { '200': { description: 'ok' } } };
const { operations } = readOperations(
  smallSpec(
    {},
    {
      paths: {
        '/api/v1/me': { get: { operationId: 'me', ...ok } },
        '/api/v1/stats': { get: { operationId: 'stats', ...ok }, post: { operationId: 'resetStats', ...ok } },
      },
    },
  ),
  'openapi.yaml',
);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'handlers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(name: string, text: string | undefined) {
  const file = path.join(dir, name);
  if (text !== undefined) await writeFile(file, text);
  const { handlers, problems, warnings } = await loadHandlers(file, operations);
  const told = (ps: typeof problems) =>
    ps.map((p) => `${path.basename(p.file)}${p.pointer ? ` ${p.pointer}` : ''}: ${p.reason}`);
  return { names: Object.keys(handlers).sort(), handlers, problems: told(problems), warnings: told(warnings) };
}

describe("loadHandlers: the designer's handlers by operationId", () => {
  it.each<[string, string, string, string[], string[], string[]]>([
    [
      'named exports (.mjs)',
      'named.mjs',
      'export const me = () => ({ status: 200, body: 1 });\nexport function stats() {}\nexport const version = 3;\n',
      ['me', 'stats'],
      [],
      [],
    ],
    [
      'the members of a default export, and named ones beside it',
      'default.mjs',
      'export default { me() {}, resetStats() {}, note: "x" };\nexport const stats = () => undefined;\n',
      ['me', 'resetStats', 'stats'],
      [],
      [],
    ],
    [
      'TypeScript, without a build (.ts)',
      'typed.ts',
      'import type { Handler } from "x";\nexport const me: Handler = (req) => (req.user ? undefined : { status: 403 });\n',
      ['me'],
      [],
      [],
    ],
    [
      'a function named after no operation: a warning, never called',
      'typo.mjs',
      'export const mee = () => undefined;\nexport const me = () => undefined;\n',
      ['me'],
      [],
      ['typo.mjs: exports a handler "mee", but the spec declares no operation of that operationId: it is never called'],
    ],
    [
      'a module that throws as it is imported: why (its place: see placeIn)',
      'throws.mjs',
      '\n\nthrow new Error("not today");\n',
      [],
      ['throws.mjs 3:7: cannot be imported: not today'],
      [],
    ],
    [
      'a default export compiled to CommonJS (tsc, Babel): its functions too',
      'compiled.cjs',
      '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.stats = 1;\nexports.default = { me() { return undefined; } };\n',
      ['me'],
      [],
      [],
    ],
    [
      'a syntax error: the place the compiler gives',
      'broken.ts',
      'export const me = () => {\n  return 1 +;\n};\n',
      [],
      [expect.stringMatching(/^broken\.ts 2:\d+: cannot be imported: /) as unknown as string],
      [],
    ],
  ])('%s', async (_name, file, text, names, problems, warnings) => {
    const got = await load(file, text);
    expect({ names: got.names, problems: got.problems, warnings: got.warnings }).toEqual({ names, problems, warnings });
    expect(Object.isFrozen(got.handlers)).toBe(names.length > 0);
  });

  it('calls come back to the module: its functions as written', async () => {
    const { handlers } = await load('call.mjs', 'export const me = (req) => ({ status: req.user ? 200 : 401 });\n');
    expect(await handlers.me?.({ user: true } as never, {} as never)).toEqual({ status: 200 });
  });

  it.each<[string, (dir: string) => Promise<string>, string]>([
    ['no such file', async (d) => path.join(d, 'absent.mjs'), 'no such file'],
    [
      'a folder',
      async (d) => {
        await mkdir(path.join(d, 'folder.mjs'), { recursive: true });
        return path.join(d, 'folder.mjs');
      },
      'not a regular file',
    ],
  ])('%s: a problem, no handler', async (_name, make, reason) => {
    const file = await make(dir);
    const { handlers, problems } = await loadHandlers(file, operations);
    expect(handlers).toEqual({});
    expect(problems).toEqual([{ file, pointer: '', reason }]);
  });
});

describe('placeIn: where an error points in the handlers module, or a file beside it', () => {
  const module = '/work/app/handlers/index.ts';
  const error = (stack: string) => Object.assign(new Error('boom'), { stack: `Error: boom\n${stack}` });
  it.each<[string, unknown, { file: string; at: string } | undefined]>([
    [
      'the module, as a file URL',
      error('    at me (file:///work/app/handlers/index.ts:12:5)'),
      { file: '/work/app/handlers/index.ts', at: '12:5' },
    ],
    [
      'a file it imports, in its folder: the first frame there',
      error(
        '    at x (node:internal/a:1:1)\n    at y (/work/app/handlers/util.mjs:3:9)\n    at z (/work/app/handlers/index.ts:1:1)',
      ),
      { file: '/work/app/handlers/util.mjs', at: '3:9' },
    ],
    [
      'a package under node_modules: not the designer’s',
      error('    at (/work/app/handlers/node_modules/p/i.js:1:2)'),
      undefined,
    ],
    ['outside the folder', error('    at (/work/app/other.ts:4:4)'), undefined],
    ['a folder whose name starts alike', error('    at (/work/app/handlers-old/a.ts:4:4)'), undefined],
    [
      'a url with a query (tsx adds ?tsx-namespace=…)',
      error('    at file:///work/app/handlers/index.ts?tsx-namespace=abc:3:7'),
      { file: '/work/app/handlers/index.ts', at: '3:7' },
    ],
    [
      'the place in the message (a compiler’s)',
      new Error('/work/app/handlers/index.ts:2:11: ERROR: Unexpected ";"'),
      { file: '/work/app/handlers/index.ts', at: '2:11' },
    ],
    ['a thrown string', 'nothing here', undefined],
  ])('%s', (_name, e, want) => {
    expect(placeIn(e, module)).toEqual(want);
  });
});
