import type { LoadProblem } from '../errors.js';
import { appendPointer, follow, isObject } from './pointer.js';

/** A response the spec declares for an operation: status, and the JSON schema's pointer if any. */
export interface DeclaredResponse {
  readonly status: string;
  readonly schemaPointer: string | undefined;
  /** Named examples (`content.application/json.examples`), values resolved. */
  readonly examples: Readonly<Record<string, unknown>>;
}

interface OperationBase {
  readonly operationId: string;
  /** The spec's path template, `/api/v1/desk/{pk}`. */
  readonly path: string;
  /** The last literal path segment of the collection: `desk`, `expense-month`; fixture file name. */
  readonly resource: string;
  /** Pointer to the operation object in the bundled spec. */
  readonly pointer: string;
  readonly summary: string;
  readonly responses: Readonly<Record<string, DeclaredResponse>>;
  /** Enum of the `format` query parameter, when the spec declares one. */
  readonly formats: readonly string[] | undefined;
  /** Declared query parameters: name → pointer to its schema. */
  readonly queryParams: Readonly<Record<string, string>>;
}

/** A collection: a GET whose 200 answer is the list envelope (an object with a `results` array). */
export interface ListOperation extends OperationBase {
  readonly kind: 'list';
  /** Pointer to the schema of one element of `results`. */
  readonly itemPointer: string;
  /** The item's schema name, from `#/components/schemas/<Name>` ("Desk"), for DRF's messages. */
  readonly itemName: string;
  /** The item schema's `x-stub-count` (how many items to generate), if set. */
  readonly generateCount: number | undefined;
}

/** A single item of a collection: a GET on the collection's path plus one `{param}` segment. */
export interface DetailOperation extends OperationBase {
  readonly kind: 'detail';
  readonly pkParam: string;
  /** The pk parameter is an integer: Django converts it with int() before the lookup. */
  readonly pkIsInteger: boolean;
  readonly itemPointer: string;
}

export type Operation = ListOperation | DetailOperation;

export interface Operations {
  readonly all: readonly Operation[];
  readonly lists: readonly ListOperation[];
  /** Detail operation of a collection path, if the spec has one. */
  readonly detailOf: ReadonlyMap<string, DetailOperation>;
}

/** Walks the `results` member (through `$ref` and `allOf`) to the pointer of its `items` schema. */
function findResultsItems(doc: unknown, schemaPointer: string, depth = 0): string | undefined {
  if (depth > 16) return undefined;
  const { pointer, node } = follow(doc, schemaPointer);
  if (!isObject(node)) return undefined;
  let found: string | undefined;
  if (isObject(node.properties) && node.properties.results !== undefined) {
    const results = follow(doc, appendPointer(pointer, 'properties', 'results'));
    if (isObject(results.node) && results.node.items !== undefined) found = follow(doc, appendPointer(results.pointer, 'items')).pointer;
  }
  if (Array.isArray(node.allOf)) {
    node.allOf.forEach((_, i) => {
      found = findResultsItems(doc, appendPointer(pointer, 'allOf', i), depth + 1) ?? found;
    });
  }
  return found;
}

function schemaName(pointer: string): string {
  const m = /^#\/components\/schemas\/([^/]+)$/.exec(pointer);
  return m ? (m[1] ?? '').replaceAll('~1', '/').replaceAll('~0', '~') : 'object';
}

function declaredResponses(doc: unknown, opPointer: string): Record<string, DeclaredResponse> {
  const out: Record<string, DeclaredResponse> = {};
  const responses = follow(doc, appendPointer(opPointer, 'responses'));
  if (!isObject(responses.node)) return out;
  for (const status of Object.keys(responses.node)) {
    const resp = follow(doc, appendPointer(responses.pointer, status));
    const media = follow(doc, appendPointer(resp.pointer, 'content', 'application/json'));
    const schemaPointer = isObject(media.node) && media.node.schema !== undefined ? appendPointer(media.pointer, 'schema') : undefined;
    const examples: Record<string, unknown> = {};
    if (isObject(media.node) && isObject(media.node.examples)) {
      for (const name of Object.keys(media.node.examples)) {
        const ex = follow(doc, appendPointer(media.pointer, 'examples', name)).node;
        if (isObject(ex) && 'value' in ex) examples[name] = ex.value;
      }
    } else if (isObject(media.node) && 'example' in media.node) {
      examples.default = media.node.example;
    }
    out[status] = { status, schemaPointer, examples };
  }
  return out;
}

function parameters(doc: unknown, pathPointer: string, opPointer: string): { name: string; in: string; pointer: string }[] {
  const out = new Map<string, { name: string; in: string; pointer: string }>();
  for (const owner of [pathPointer, opPointer]) {
    const list = getList(doc, appendPointer(owner, 'parameters'));
    list.forEach((_, i) => {
      const p = follow(doc, appendPointer(owner, 'parameters', i));
      if (isObject(p.node) && typeof p.node.name === 'string' && typeof p.node.in === 'string') {
        out.set(`${p.node.in}:${p.node.name}`, { name: p.node.name, in: p.node.in, pointer: p.pointer });
      }
    });
  }
  return [...out.values()];
}

function getList(doc: unknown, pointer: string): unknown[] {
  const n = follow(doc, pointer).node;
  return Array.isArray(n) ? n : [];
}

/**
 * The flat list of operations the stub serves, read from the bundled spec: every GET whose 200
 * answer holds `results` is a collection; a GET on a collection's path plus `/{param}` is its
 * detail. Anything the stub cannot serve is a LoadProblem (the spec is the source of truth, so a
 * path it cannot serve is an error to show, not to skip silently).
 */
export function readOperations(doc: Readonly<Record<string, unknown>>, file: string): { operations: Operations; problems: LoadProblem[] } {
  const problems: LoadProblem[] = [];
  const all: Operation[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  const lists = new Map<string, ListOperation>();
  const details: { path: string; op: Omit<DetailOperation, 'itemPointer'> }[] = [];

  for (const path of Object.keys(paths).sort()) {
    const pathPointer = appendPointer('#/paths', path);
    const opPointer = appendPointer(pathPointer, 'get');
    const op = follow(doc, opPointer).node;
    if (!isObject(op)) continue;
    const params = parameters(doc, pathPointer, opPointer);
    const formatParam = params.find((p) => p.in === 'query' && p.name === 'format');
    const formatSchema = formatParam ? follow(doc, appendPointer(formatParam.pointer, 'schema')).node : undefined;
    const segments = path.split('/').filter(Boolean);
    const last = segments[segments.length - 1] ?? '';
    const base = {
      operationId: typeof op.operationId === 'string' ? op.operationId : `get ${path}`,
      path,
      pointer: opPointer,
      summary: typeof op.summary === 'string' ? op.summary : '',
      responses: declaredResponses(doc, opPointer),
      formats: isObject(formatSchema) && Array.isArray(formatSchema.enum) ? formatSchema.enum.map(String) : undefined,
      queryParams: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, appendPointer(p.pointer, 'schema')])),
    };
    const ok = base.responses['200'];
    const itemPointer = ok?.schemaPointer ? findResultsItems(doc, ok.schemaPointer) : undefined;
    const paramMatch = /^\{([^}]+)\}$/.exec(last);
    if (itemPointer !== undefined && !paramMatch) {
      const itemNode = follow(doc, itemPointer).node;
      const count = isObject(itemNode) ? itemNode['x-stub-count'] : undefined;
      if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 0 && (count as number) <= 100_000)) {
        problems.push({ file, pointer: `${itemPointer.slice(1)}/x-stub-count`, reason: 'must be an integer from 0 to 100000' });
      }
      const list: ListOperation = {
        ...base,
        kind: 'list',
        resource: last,
        itemPointer,
        itemName: schemaName(itemPointer),
        generateCount: typeof count === 'number' ? count : undefined,
      };
      lists.set(path, list);
      all.push(list);
    } else if (paramMatch && segments.length >= 2) {
      const pkParam = paramMatch[1] ?? 'pk';
      const pkDecl = params.find((p) => p.in === 'path' && p.name === pkParam);
      const pkSchema = pkDecl ? follow(doc, appendPointer(pkDecl.pointer, 'schema')).node : undefined;
      const pkIsInteger = isObject(pkSchema) && pkSchema.type === 'integer';
      details.push({ path, op: { ...base, kind: 'detail', resource: segments[segments.length - 2] ?? '', pkParam, pkIsInteger } });
    } else {
      problems.push({
        file,
        pointer: opPointer.slice(1),
        reason: 'a GET the stub cannot serve: its 200 answer has no `results` array and it is not a collection item path',
      });
    }
  }
  const detailOf = new Map<string, DetailOperation>();
  for (const { path, op } of details) {
    const parent = path.slice(0, path.lastIndexOf('/'));
    const list = lists.get(parent);
    if (!list) {
      problems.push({ file, pointer: op.pointer.slice(1), reason: `an item path whose collection ${parent} is not in the spec` });
      continue;
    }
    // The detail's own 200 schema is its item; a detail without one answers the collection's item.
    const own = op.responses['200']?.schemaPointer;
    const detail: DetailOperation = { ...op, itemPointer: own ? follow(doc, own).pointer : list.itemPointer };
    detailOf.set(parent, detail);
    all.push(detail);
  }
  return { operations: { all, lists: [...lists.values()], detailOf }, problems };
}
