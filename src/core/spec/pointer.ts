/** JSON Pointer (RFC 6901) helpers over the bundled spec, which holds only internal `$ref`s. */

export function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapeToken(String(t))}`).join('');
}

export function appendPointer(pointer: string, ...tokens: (string | number)[]): string {
  return pointer + pointerOf(tokens);
}

// Tokens repeat (paths, get, responses, content, ...): each decoded once.
const decoded = new Map<string, string>();

function decodeToken(raw: string): string {
  if (!raw.includes('%') && !raw.includes('~')) return raw;
  let token = decoded.get(raw);
  if (token === undefined) {
    token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (decoded.size < 50_000) decoded.set(raw, token);
  }
  return token;
}

/** The value at `pointer` (with or without a leading `#`), or undefined. */
export function getAt(doc: unknown, pointer: string): unknown {
  const p = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (p === '') return doc;
  let node: unknown = doc;
  for (const raw of p.slice(1).split('/')) {
    const token = decodeToken(raw);
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Follows internal `$ref`s from `pointer` until a node without one; answers the final pointer
 * (`#/...`) and node. Stops at a cycle or a dangling ref (node undefined).
 */
export function follow(doc: unknown, pointer: string): { pointer: string; node: unknown } {
  const seen = new Set<string>();
  let current = pointer.startsWith('#') ? pointer : `#${pointer}`;
  for (;;) {
    const node = getAt(doc, current);
    if (!isObject(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#')) return { pointer: current, node };
    if (seen.has(current)) return { pointer: current, node: undefined };
    seen.add(current);
    current = node.$ref;
  }
}
