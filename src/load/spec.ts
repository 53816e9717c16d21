import { readFile } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { LineCounter, parseDocument } from 'yaml';
import { LoadError, type LoadProblem } from '../core/errors.js';
import { isObject, pointerOf } from '../core/spec/pointer.js';

/** The authored spec, loaded: one bundled document holding only internal `$ref`s. */
export interface LoadedSpec {
  readonly rootFile: string;
  /** Every file the root reaches through `$ref`, the root first (what `--watch` follows). */
  readonly files: readonly string[];
  /** The spec bundled by swagger-parser: external files inlined, cycles kept as internal refs. */
  readonly doc: Readonly<Record<string, unknown>>;
}

function rel(file: string): string {
  const r = path.relative(process.cwd(), file);
  return r.startsWith('..') ? file : r;
}

async function parseFile(file: string, problems: LoadProblem[]): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    problems.push({ file: rel(file), pointer: '', reason: `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})` });
    return undefined;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const err of doc.errors) {
      const pos = lineCounter.linePos(err.pos[0]);
      problems.push({ file: rel(file), pointer: `line ${pos.line}:${pos.col}`, reason: err.message.split('\n')[0] ?? err.message });
    }
    return undefined;
  }
  return doc.toJS();
}

/** Every external `$ref` (not starting with `#`) with the pointer where it stands. */
function externalRefs(node: unknown, tokens: (string | number)[], out: { pointer: string; ref: string }[]): void {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) externalRefs(v, [...tokens, i], out);
    return;
  }
  if (!isObject(node)) return;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) out.push({ pointer: pointerOf([...tokens, k]), ref: v });
    else externalRefs(v, [...tokens, k], out);
  }
}

/**
 * Reads the root and every file it `$ref`s, checking each parses and each reference names a
 * readable file; then bundles and validates the whole with swagger-parser (OpenAPI 3.1 schema).
 * Throws a LoadError naming file, place and reason for every problem found.
 */
export async function loadSpec(rootFile: string): Promise<LoadedSpec> {
  const root = path.resolve(rootFile);
  const problems: LoadProblem[] = [];
  const files: string[] = [root];
  const queue = [root];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const content = await parseFile(file, problems);
    if (content === undefined) continue;
    const refs: { pointer: string; ref: string }[] = [];
    externalRefs(content, [], refs);
    for (const { pointer, ref } of refs) {
      const target = path.resolve(path.dirname(file), decodeURI(ref.split('#')[0] ?? ''));
      if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
        problems.push({ file: rel(file), pointer, reason: `$ref "${ref}" names a remote document; only local files are followed` });
      } else if (!seen.has(target)) {
        seen.add(target);
        files.push(target);
        queue.push(target);
      }
    }
  }
  if (problems.length > 0) throw new LoadError(problems);

  let doc: Record<string, unknown>;
  try {
    doc = (await SwaggerParser.bundle(root)) as unknown as Record<string, unknown>;
    // validate() dereferences what it is given: hand it a copy, keep the bundled form.
    await SwaggerParser.validate(structuredClone(doc) as never);
  } catch (e) {
    throw new LoadError(swaggerProblems(rel(root), e));
  }
  return { rootFile: root, files, doc };
}

function swaggerProblems(file: string, e: unknown): LoadProblem[] {
  const details = (e as { details?: { instancePath?: string; message?: string; params?: Record<string, unknown> }[] }).details;
  if (Array.isArray(details) && details.length > 0) {
    return details.map((d) => ({
      file,
      pointer: d.instancePath || '/',
      reason: `${d.message ?? 'is invalid'}${d.params ? ` ${JSON.stringify(d.params)}` : ''} (OpenAPI 3.1 schema)`,
    }));
  }
  const message = e instanceof Error ? e.message : String(e);
  return [{ file, pointer: '', reason: message.split('\n')[0] ?? message }];
}
