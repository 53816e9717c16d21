/**
 * What of a spec matters to registering it with the contract's Ajv (contract/ajv.ts): every `x-…`
 * specification extension it uses (annotations to Ajv, not errors), whether any of its objects
 * has an `$id`, `$anchor` or `$dynamicAnchor` member (a schema Ajv must index to resolve a `$ref`
 * by it), and whether any says `writeOnly: true` (its response view is then a copy).
 *
 * Gathered key by key by whatever walks the document already (the loader's check of each file's
 * parsed tree: load/yaml-text.ts), so that no walk of a spec of thousands of paths is made for it
 * alone; a scan of every file a spec is bundled from holds what the bundled document holds (the
 * bundle moves values, it adds no key), and maybe more (an external file's unused part): more
 * extensions registered, an index or a copy made that was not needed, never a check changed.
 */
export interface DocumentScan {
  readonly extensions: readonly string[];
  /** Every string a `format` member holds (a property named `format` included: more, never fewer). */
  readonly formats: readonly string[];
  readonly identifies: boolean;
  readonly writeOnly: boolean;
}

/** A scan gathered key by key (`key`: a member's name, `value`: its value). */
export class ScanCollector {
  readonly #extensions = new Set<string>();
  readonly #formats = new Set<string>();
  #identifies = false;
  #writeOnly = false;

  key(key: string, value: unknown): void {
    const first = key.charCodeAt(0);
    if (first === 120 && key.charCodeAt(1) === 45) this.#extensions.add(key);
    else if (first === 36 && (key === '$id' || key === '$anchor' || key === '$dynamicAnchor')) this.#identifies = true;
    else if (value === true && key === 'writeOnly') this.#writeOnly = true;
    else if (typeof value === 'string' && key === 'format') this.#formats.add(value);
  }

  /** Another scan's findings, added to this one's. */
  add(scan: DocumentScan): void {
    for (const e of scan.extensions) this.#extensions.add(e);
    for (const f of scan.formats) this.#formats.add(f);
    this.#identifies ||= scan.identifies;
    this.#writeOnly ||= scan.writeOnly;
  }

  finish(): DocumentScan {
    return {
      extensions: [...this.#extensions],
      formats: [...this.#formats],
      identifies: this.#identifies,
      writeOnly: this.#writeOnly,
    };
  }
}

/** The scan of a document, walked on its own (each object once). */
export function scanDocument(doc: unknown): DocumentScan {
  const scan = new ScanCollector();
  const seen = new Set<object>();
  // Only objects are walked into (a spec has some hundred thousand values, most of them scalars).
  const walk = (node: object): void => {
    if (seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const v of node) if (v !== null && typeof v === 'object') walk(v);
      return;
    }
    for (const k of Object.keys(node)) {
      const v = (node as Record<string, unknown>)[k];
      scan.key(k, v);
      if (v !== null && typeof v === 'object') walk(v);
    }
  };
  if (doc !== null && typeof doc === 'object') walk(doc);
  return scan.finish();
}
