import type { ItemSource } from './prepared-items.js';

/** The snapshot format's name and version: a snapshot of another version is refused, not guessed at. */
export const SNAPSHOT_FORMAT = 'workplace-admin-stub/snapshot@1';

/**
 * Everything the stub serves, prepared and validated in Node, serialisable as JSON
 * (`workplace-stub snapshot > stub-snapshot.json`): the bundled spec and each collection's items.
 * The core answers from it alone, in Node, a browser, a service worker or an edge runtime.
 */
export interface Snapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  /** The bundled OpenAPI document (internal `$ref`s only). */
  readonly spec: Readonly<Record<string, unknown>>;
  /** By collection path (`/api/v1/desk`). */
  readonly collections: Readonly<Record<string, SnapshotCollection>>;
  /**
   * Bodies generated (seeded) from a declared response's schema when it has no example, for
   * `Prefer: code=N`: by `<operation pointer> <status>`.
   */
  readonly generatedBodies: Readonly<Record<string, unknown>>;
  /** The bodies of actions and views that name a fixture (`x-stub-fixture`), by operation pointer. */
  readonly fixtureBodies?: Readonly<Record<string, unknown>>;
}

export interface SnapshotCollection {
  /** Where the items come from (docs/response-selection.md). */
  readonly source: ItemSource;
  /** The file or spec place they come from, for messages. */
  readonly from: string;
  /** The items as stored: no `url` (built per request). */
  readonly items: readonly unknown[];
  /** Generated items (`Prefer: dynamic=true`), when the item schema describes fields. */
  readonly dynamic?: readonly unknown[];
  /** The 200 answer's named examples that are envelopes: their `results` (`Prefer: example=NAME`). */
  readonly examples: Readonly<Record<string, readonly unknown[]>>;
}

/** A value that claims to be a snapshot: checked before the core trusts it. */
export function asSnapshot(value: unknown): Snapshot {
  const v = value as Partial<Snapshot> | null;
  if (v === null || typeof v !== 'object') throw new TypeError('a stub snapshot is a JSON object');
  if (v.format !== SNAPSHOT_FORMAT)
    throw new TypeError(
      `not a stub snapshot of format ${SNAPSHOT_FORMAT} (format: ${JSON.stringify(v.format)}); make it again with \`workplace-stub snapshot\``,
    );
  if (v.spec === null || typeof v.spec !== 'object' || v.collections === null || typeof v.collections !== 'object')
    throw new TypeError('a stub snapshot has a spec and collections');
  for (const [path, c] of Object.entries(v.collections)) {
    if (c === null || typeof c !== 'object' || !Array.isArray(c.items))
      throw new TypeError(`snapshot collection ${path} has no items array`);
  }
  return v as Snapshot;
}
