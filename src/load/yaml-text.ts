import jsYaml from 'js-yaml';
import type * as Yaml from 'yaml';
import { type DocumentScan, ScanCollector, scanDocument } from '../openapi/document-scan.js';
import type { LoadLimits } from './limits.js';
import { linePlace } from './text-checks.js';
import { yamlPackage } from './yaml-package.js';

export interface TextProblem {
  /** `line L:C`, or '' for the whole file. */
  readonly place: string;
  readonly reason: string;
}

/**
 * `asBundlerReads`: the value is js-yaml's (JSON schema), exactly what the bundler's own YAML
 * parser makes of the text, so that it may be handed to the bundler instead of the text.
 */
export type YamlRead =
  { ok: true; value: unknown; asBundlerReads: boolean; scan: DocumentScan } | { ok: false; problems: TextProblem[] };

type Tree = Yaml.Node | { key: unknown; value: unknown } | null | unknown;

/**
 * Parses a spec file (YAML 1.2, so JSON too) with every problem placed: syntax errors, repeated
 * keys, nesting deeper than the limit, and alias expansion past `maxAliasCount` (a "billion
 * laughs" is refused at the alias that crosses the bound, as the `yaml` package counts them,
 * before anything is expanded).
 *
 * A file is read first as the bundler reads it (js-yaml, JSON schema: its values are the ones
 * served): when that succeeds with a plain tree (no collection reached twice through an alias,
 * nesting within the limit) it is the answer, ten times faster than the `yaml` package's document
 * model on a spec of thousands of paths. Anything else (a syntax error, a repeated key, an alias
 * of a collection, deep nesting) is read again by `yaml`, which places every problem.
 */
export function parseYamlText(text: string, limits: LoadLimits): YamlRead {
  const quick = quickParse(text, limits.maxDepth);
  return quick !== undefined
    ? { ok: true, value: quick.value, asBundlerReads: true, scan: quick.scan }
    : carefulParse(text, limits);
}

function quickParse(text: string, maxDepth: number): { value: unknown; scan: DocumentScan } | undefined {
  let value: unknown;
  try {
    value = jsYaml.load(text, { schema: jsYaml.JSON_SCHEMA });
  } catch {
    return undefined;
  }
  // An alias needs an anchor (`&name`) before it: a text without `&` has none to look for.
  const scan = new ScanCollector();
  return plainTree(value, maxDepth, text.includes('&'), scan) ? { value, scan: scan.finish() } : undefined;
}

/**
 * No collection reached twice (an alias: the careful path counts its copies), none nested deeper
 * than `max`, no number JSON cannot hold (`.inf`, `.nan`: the careful path places it). Every
 * member is told to `scan` on the way (the walk the contract's Ajv would otherwise make again).
 */
function plainTree(root: unknown, max: number, aliases: boolean, scan: ScanCollector): boolean {
  const seen = aliases ? new Set<object>() : undefined;
  // Two stacks, not one of pairs: a spec of thousands of paths has hundreds of thousands of nodes.
  const nodes: object[] = [];
  const depths: number[] = [];
  let finite = true;
  const push = (child: unknown, depth: number) => {
    if (child !== null && typeof child === 'object') {
      nodes.push(child);
      depths.push(depth);
    } else if (typeof child === 'number' && !Number.isFinite(child)) finite = false;
  };
  push(root, 0);
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth + 1 > max) return false;
    if (seen) {
      if (seen.has(node)) return false;
      seen.add(node);
    }
    if (Array.isArray(node)) for (const child of node) push(child, depth + 1);
    else
      for (const key in node) {
        const value = node[key];
        scan.key(key, value);
        push(value, depth + 1);
      }
  }
  return finite;
}

function carefulParse(text: string, limits: LoadLimits): YamlRead {
  const { LineCounter, parseDocument } = yamlPackage();
  const lineCounter = new LineCounter();
  const at = (offset: number | null | undefined) => {
    const p = lineCounter.linePos(offset ?? 0);
    return linePlace(p.line, p.col);
  };
  // Duplicate keys are found below, in one pass (the yaml package's own check compares each key with
  // every earlier one of its map: quadratic in a spec of thousands of paths).
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((err) => {
        // The parser is recursive: nesting deep enough to exhaust its stack is told as nesting,
        // where it first goes past the limit when that is a flow collection.
        if (/call stack/i.test(err.message)) {
          const deep = flowTooDeepAt(text, limits.maxDepth);
          return { place: at(deep === -1 ? err.pos[0] : deep), reason: `nested deeper than ${limits.maxDepth} levels` };
        }
        return { place: at(err.pos[0]), reason: err.message.split('\n')[0] ?? err.message };
      }),
    };
  }
  /** The file refused for `nodes`: a problem for each, told where it starts. */
  const refused = <N extends Yaml.Node>(nodes: readonly N[], reason: (node: N) => string): YamlRead => ({
    ok: false,
    problems: nodes.map((n) => ({ place: at(n.range?.[0]), reason: reason(n) })),
  });
  const duplicates = duplicateKeys(doc.contents);
  if (duplicates.length > 0) return refused(duplicates, () => 'Map keys must be unique');
  const deep = tooDeep(doc.contents, limits.maxDepth);
  if (deep !== undefined) return refused([deep], () => `nested deeper than ${limits.maxDepth} levels`);
  // YAML's `.inf` and `.nan` (and, as yaml reads it, a number past a double's range) are numbers
  // JSON cannot hold: an OpenAPI document's YAML is limited to JSON's values (the specification's
  // Format section: YAML 1.2, tags of the JSON Schema ruleset), and served as JSON they would turn
  // into null.
  const notJson = nonFiniteNumbers(doc);
  if (notJson.length > 0)
    return refused(
      notJson,
      (n) =>
        `${JSON.stringify(n.range ? text.slice(n.range[0], n.range[1]) : String(n.value))} is not a number JSON can hold (OpenAPI's YAML is limited to JSON's values): write a finite number, or leave the member out`,
    );
  const cycle = aliasInsideItsAnchor(doc);
  if (cycle !== undefined)
    return refused(
      [cycle],
      (a) =>
        `alias *${a.source} stands inside the node its anchor names: a value that contains itself, which JSON cannot hold (OpenAPI's YAML is limited to JSON's values): use $ref`,
    );
  const bomb = aliasOverflow(doc, limits.maxAliasCount);
  if (bomb !== undefined)
    return refused(
      [bomb],
      (a) =>
        `alias *${a.source} expands past ${limits.maxAliasCount} copies of its anchor (a "billion laughs"?): write the values out, or use $ref`,
    );
  try {
    const value = doc.toJS({ maxAliasCount: limits.maxAliasCount });
    return { ok: true, value, asBundlerReads: false, scan: scanDocument(value) };
  } catch (e) {
    return { ok: false, problems: [{ place: '', reason: (e as Error).message }] };
  }
}

/** Every key repeated in its map (by its scalar value), in one pass over the document. */
function duplicateKeys(root: Tree): Yaml.Node[] {
  const { isCollection, isPair, isScalar } = yamlPackage();
  const out: Yaml.Node[] = [];
  const stack: Tree[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isCollection(node)) {
      const seen = new Set<unknown>();
      for (const item of node.items) {
        if (isPair(item)) {
          const key = item.key;
          if (isScalar(key)) {
            if (seen.has(key.value)) out.push(key);
            seen.add(key.value);
          }
          stack.push(item.value);
        } else stack.push(item);
      }
    }
  }
  return out;
}

/** The first collection nested deeper than `max` (iterative: depth is what is being checked). */
function tooDeep(root: Tree, max: number): Yaml.Node | undefined {
  const { isCollection, isPair } = yamlPackage();
  const stack: [Tree, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [Tree, number];
    if (isPair(node)) {
      stack.push([node.value, depth], [node.key, depth]);
    } else if (isCollection(node)) {
      if (depth + 1 > max) return node;
      for (let i = node.items.length - 1; i >= 0; i--) stack.push([node.items[i], depth + 1]);
    }
  }
  return undefined;
}

/** Every scalar whose value is a number that is not finite, in document order. */
function nonFiniteNumbers(doc: ReturnType<typeof Yaml.parseDocument>): Yaml.Scalar[] {
  const found: Yaml.Scalar[] = [];
  yamlPackage().visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'number' && !Number.isFinite(node.value)) found.push(node);
    },
  });
  return found;
}

/**
 * The first alias that stands inside the very node its anchor names (`A: &a {self: *a}`), in
 * document order: toJS would make a value that contains itself, which no JSON holds and which
 * the bundler's crawl follows until the stack runs out. An alias names an anchor set before it,
 * so a value can only contain itself this way.
 */
function aliasInsideItsAnchor(doc: ReturnType<typeof Yaml.parseDocument>): Yaml.Alias | undefined {
  return firstAlias(doc, (_alias, src, path) => path.includes(src));
}

/**
 * The first alias, in document order, for which `stop` says so, given the node its anchor names
 * (the last one set before it, as the `yaml` package resolves it; an alias without one is
 * skipped) and the alias's ancestors.
 */
function firstAlias(
  doc: ReturnType<typeof Yaml.parseDocument>,
  stop: (alias: Yaml.Alias, src: Yaml.Node, path: readonly unknown[]) => boolean,
): Yaml.Alias | undefined {
  const { isAlias, visit } = yamlPackage();
  const lastAnchor = new Map<string, Yaml.Node>();
  let found: Yaml.Alias | undefined;
  visit(doc, {
    Node(_key, node, path) {
      if (isAlias(node)) {
        const src = lastAnchor.get(node.source);
        if (src !== undefined && stop(node, src, path)) {
          found = node;
          return visit.BREAK;
        }
      } else if (node.anchor) lastAnchor.set(node.anchor, node);
      return undefined;
    },
  });
  return found;
}

/**
 * The alias at which the `yaml` package's toJS would stop with "Excessive alias count", found by
 * counting as it does (Alias.resolve: each anchor's uses times the aliases inside it), in document
 * order, without expanding anything.
 */
function aliasOverflow(doc: ReturnType<typeof Yaml.parseDocument>, max: number): Yaml.Alias | undefined {
  const { isAlias, isCollection, isPair } = yamlPackage();
  const target = new Map<Yaml.Node, Yaml.Node>();
  const counts = new Map<Yaml.Node, { count: number; aliasCount: number }>();
  const aliasCountOf = (node: Tree): number => {
    if (isAlias(node)) {
      const src = target.get(node);
      const d = src && counts.get(src);
      return d ? d.count * d.aliasCount : 0;
    }
    if (isCollection(node)) {
      let c = 0;
      for (const item of node.items) c = Math.max(c, aliasCountOf(item));
      return c;
    }
    if (isPair(node)) return Math.max(aliasCountOf(node.key), aliasCountOf(node.value));
    return 1;
  };
  return firstAlias(doc, (alias, src) => {
    target.set(alias, src);
    let d = counts.get(src);
    if (!d) counts.set(src, (d = { count: 0, aliasCount: 0 }));
    d.count += 1;
    if (d.aliasCount === 0) d.aliasCount = aliasCountOf(src);
    return d.count * d.aliasCount > max;
  });
}

/**
 * The index of the first `[` or `{` nested deeper than `max` in YAML flow style (quotes and
 * comments skipped), or -1: only to say where a document too deep to parse goes too deep.
 */
function flowTooDeepAt(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === "'") {
      for (i++; i < text.length; i++) if (text[i] === "'" && text[++i] !== "'") break;
      i--;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '[' || c === '{') {
      if (++depth > max) return i;
    } else if (c === ']' || c === '}') depth--;
  }
  return -1;
}
