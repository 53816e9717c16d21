import { sparseElements } from '../openapi/sparse-elements.js';

/**
 * Gives every object of a parsed document whose members are named like array indexes (a
 * `responses` map: `200`, `404`) the storage JSON.parse gives it (sparseElements): a parser that
 * builds objects member by member (the `yaml` package's toJS) leaves them each an array of as
 * many slots as their largest index, most of a large spec's heap. Only objects are walked into,
 * each once.
 */
export function compactIndexKeys(doc: unknown): void {
  const seen = new Set<object>();
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const v of node) if (v !== null && typeof v === 'object') stack.push(v);
      continue;
    }
    const o = node as Record<string, unknown>;
    // Index keys come first in an object's order: its first key tells.
    for (const k in o) {
      if (isIndex(k)) sparseElements(o);
      break;
    }
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
}

/** Whether V8 takes `k` as an array index: a canonical integer below 2^32 - 1. */
function isIndex(k: string): boolean {
  const c = k.charCodeAt(0);
  if (c < 48 || c > 57 || (c === 48 && k.length > 1) || k.length > 10) return false;
  const n = Number(k);
  return Number.isInteger(n) && n < 2 ** 32 - 1 && String(n) === k;
}
