import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Handler, Handlers } from '../core/stub/handler-types.js';
import type { Operations } from '../openapi/operations.js';
import type { LoadProblem } from './errors.js';
import { rel } from './paths.js';

/**
 * The designer's handlers module (`--handlers FILE`, .js, .mjs or .ts): its functions by
 * operationId, named exports or the members of a default export. Imported afresh at each load
 * (tsx's tsImport: TypeScript without a build, a new module instance each time, so that
 * `--watch` picks up an edit), with source maps on so that an error names the file and line.
 * A module that cannot be imported is a load problem with its place; a function named after no
 * operation of the spec is a warning.
 */
export async function loadHandlers(
  file: string,
  operations: Operations,
): Promise<{ handlers: Handlers; problems: LoadProblem[]; warnings: LoadProblem[] }> {
  const problems: LoadProblem[] = [];
  const warnings: LoadProblem[] = [];
  const absolute = path.resolve(file);
  const where = rel(absolute);
  const kind = await stat(absolute).then(
    (s) => (s.isFile() ? 'file' : 'other'),
    () => 'missing',
  );
  if (kind !== 'file') {
    problems.push({ file: where, pointer: '', reason: kind === 'missing' ? 'no such file' : 'not a regular file' });
    return { handlers: {}, problems, warnings };
  }
  process.setSourceMapsEnabled(true);
  let module: Record<string, unknown>;
  try {
    const { tsImport } = await import('tsx/esm/api');
    module = (await tsImport(absolute, import.meta.url)) as Record<string, unknown>;
  } catch (e) {
    const place = placeIn(e, absolute);
    problems.push({
      file: place?.file ?? where,
      pointer: place?.at ?? '',
      reason: `cannot be imported: ${firstLine(e)}`,
    });
    return { handlers: {}, problems, warnings };
  }
  const declared = new Set(
    [...operations.all, ...operations.writes, ...operations.customs].map((op) => op.operationId),
  );
  const handlers: Record<string, Handler> = {};
  const fromDefault = isRecord(module.default) ? module.default : {};
  // A `.js` module outside a `"type": "module"` package is loaded as CommonJS: its default export
  // then sits one level further down, beside the named ones.
  const nested = isRecord(fromDefault.default) ? fromDefault.default : {};
  for (const [name, value] of [...Object.entries(nested), ...Object.entries(fromDefault), ...Object.entries(module)]) {
    if (name === 'default' || typeof value !== 'function') continue;
    if (!declared.has(name)) {
      warnings.push({
        file: where,
        pointer: '',
        reason: `exports a handler "${name}", but the spec declares no operation of that operationId: it is never called`,
      });
      continue;
    }
    handlers[name] = value as Handler;
  }
  return { handlers: Object.freeze(handlers), problems, warnings };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/^Transform failed with \d+ errors?:\n/, '').split('\n')[0] ?? message;
}

/** Where an error points in the handlers module (or a file it imports): `file`, `line:col`. */
export function placeIn(e: unknown, module: string): { file: string; at: string } | undefined {
  const text = e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e);
  const dir = path.dirname(module);
  // A frame's url may carry a query (tsx adds `?tsx-namespace=…` to the modules it loads).
  for (const m of text.matchAll(/(?:file:\/\/)?(\/[^\s:()?]+\.(?:[cm]?[jt]s))(?:\?[^\s:()]*)?:(\d+):(\d+)/g)) {
    const file = m[1] as string;
    if (file.startsWith(dir + path.sep) && !file.includes('/node_modules/'))
      return { file: rel(file), at: `${m[2]}:${m[3]}` };
  }
  return undefined;
}
