import type { ListOperation } from '../openapi/operations.js';
import type { CrawlObserver } from './collection-check.js';
import { Findings, type OperationRef } from './findings.js';
import type { Contract } from './load.js';
import type { Redactor } from './redact.js';
import type { EndpointResult } from './report.js';
import type { Violation } from './rules.js';
import { keepExact, memberText, parseExact, sameMember, stringifyExact } from './json.js';
import { asJsonMember } from './safe-text.js';
import type { BaseScope } from './scope.js';
import { lookupField } from '../openapi/item-schema.js';

/** What differs between two deployments of the service (§9.2), beyond their base URLs. */
export interface DriftReport {
  readonly baseA: string;
  readonly baseB: string;
  readonly collections: readonly (OperationRef & { readonly endpoint: string })[];
  readonly violations: readonly Violation[];
  /** Differences beyond those kept. */
  readonly omitted: number;
  readonly failOnDrift: boolean;
}

/** `{base_url}` in place of a deployment's base, so two deployments' urls compare equal (§9.2). */
const PLACEHOLDER = '{base_url}';
const ONLY_B = 'only';
const BOTH = 'both';

function withoutBase(value: unknown, base: string): unknown {
  if (typeof value === 'string')
    return value === base || value.startsWith(`${base}/`) || value.startsWith(`${base}?`)
      ? PLACEHOLDER + value.slice(base.length)
      : value;
  if (value === null || typeof value !== 'object') return value;
  const copy = Array.isArray(value)
    ? value.map((v) => withoutBase(v, base))
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutBase(v, base)]));
  keepExact(value, copy);
  return copy;
}

interface Side {
  /** Items by key, as JSON with the base replaced: strings, not objects (about half the memory). */
  readonly items: Map<string, string>;
  readonly fields: Set<string>;
}

/**
 * Compares two deployments while they are crawled one after the other: the first's items are
 * kept (as compact JSON, urls without their base) only until the second's item with the same pk
 * arrives; then they are compared field by field and dropped. Items without a pk are compared as
 * a multiset of their JSON.
 */
export class DriftCollector {
  readonly #a = new Map<string, Side>();
  readonly #b = new Map<string, Side>();
  readonly #findings = new Map<string, Findings>();

  constructor(
    readonly contract: Contract,
    readonly scopeA: BaseScope,
    readonly scopeB: BaseScope,
    readonly redactor: Redactor,
  ) {}

  /** An item's key in `side`: its pk, else its JSON; items without a pk are a multiset, counted in the key. */
  #key(side: Side, list: ListOperation, item: Record<string, unknown>, json: string): string {
    const detail = this.contract.operations.detailOf.get(list.path) ?? { pkParam: 'pk' };
    const field = lookupField(this.contract.spec.doc, list, detail, item);
    const pk = field === undefined ? undefined : memberText(item, field);
    const key = pk !== undefined ? `${field}=${pk}` : `json ${json}`;
    let k = key;
    for (let n = 2; side.items.has(k); n++) k = `${key} #${n}`;
    return k;
  }

  #side(map: Map<string, Side>, resource: string): Side {
    let s = map.get(resource);
    if (!s) {
      s = { items: new Map(), fields: new Set() };
      map.set(resource, s);
    }
    return s;
  }

  findings(list: ListOperation): Findings {
    let f = this.#findings.get(list.path);
    if (!f) {
      f = new Findings(this.redactor, list);
      this.#findings.set(list.path, f);
    }
    return f;
  }

  /** Keeps the first deployment's items. */
  get observerA(): CrawlObserver {
    return {
      items: (list, items) => {
        const side = this.#side(this.#a, list.resource);
        for (const raw of items) {
          if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) continue;
          const item = withoutBase(raw, this.scopeA.href) as Record<string, unknown>;
          for (const k of Object.keys(item)) side.fields.add(k);
          const json = stringifyExact(item);
          side.items.set(this.#key(side, list, item, json), json);
        }
      },
    };
  }

  /** Compares the second deployment's items as they arrive. */
  get observerB(): CrawlObserver {
    return {
      items: (list, items) => {
        const a = this.#side(this.#a, list.resource);
        const b = this.#side(this.#b, list.resource);
        const f = this.findings(list);
        for (const raw of items) {
          if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) continue;
          const item = withoutBase(raw, this.scopeB.href) as Record<string, unknown>;
          for (const k of Object.keys(item)) b.fields.add(k);
          const json = stringifyExact(item);
          const k = this.#key(b, list, item, json);
          const before = a.items.get(k);
          // Of the second deployment only the keys are kept, and whether the first has them too.
          b.items.set(k, before === undefined ? ONLY_B : BOTH);
          if (before === undefined) continue;
          a.items.delete(k);
          if (before === json) continue;
          const other = parseExact(before) as Record<string, unknown>;
          for (const field of new Set([...Object.keys(other), ...Object.keys(item)])) {
            if (!sameMember(other, field, item, field))
              f.report(
                'drift.items',
                `${list.path} (${k})`,
                `/${field}`,
                asJsonMember(other, field),
                asJsonMember(item, field),
              );
          }
        }
      },
    };
  }

  /** The differences, once both deployments were crawled. */
  report(
    resultsA: readonly EndpointResult[],
    resultsB: readonly EndpointResult[],
    lists: readonly ListOperation[],
    failOnDrift: boolean,
  ): DriftReport {
    const byA = new Map(resultsA.map((e) => [e.resource, e]));
    const byB = new Map(resultsB.map((e) => [e.resource, e]));
    for (const list of lists) {
      const ea = byA.get(list.resource);
      const eb = byB.get(list.resource);
      const f = this.findings(list);
      const present = (e: EndpointResult | undefined) => e !== undefined && e.pages > 0;
      if (present(ea) !== present(eb)) {
        f.report(
          'drift.collections',
          list.path,
          '',
          present(ea) ? 'served' : 'not served',
          present(eb) ? 'served' : 'not served',
        );
        continue;
      }
      if (!ea || !eb || !present(ea)) continue;
      if (ea.count !== eb.count) f.report('drift.count', list.path, '/count', String(ea.count), String(eb.count));
      const a = this.#side(this.#a, list.resource);
      const b = this.#side(this.#b, list.resource);
      for (const field of a.fields)
        if (!b.fields.has(field)) f.report('drift.fields', list.path, `/results/*/${field}`, 'present', 'absent');
      for (const field of b.fields)
        if (!a.fields.has(field)) f.report('drift.fields', list.path, `/results/*/${field}`, 'absent', 'present');
      // Only complete crawls tell what is missing.
      if (ea.reachedEnd && eb.reachedEnd) {
        for (const k of a.items.keys()) f.report('drift.items', `${list.path} (${k})`, '', 'present', 'absent');
        for (const [k, v] of b.items)
          if (v === ONLY_B) f.report('drift.items', `${list.path} (${k})`, '', 'absent', 'present');
      }
      a.items.clear();
      b.items.clear();
    }
    const all = lists.map((l) => this.findings(l));
    return {
      baseA: this.scopeA.href,
      baseB: this.scopeB.href,
      collections: lists.map((l) => ({ endpoint: `GET ${l.path}`, operationId: l.operationId, path: l.path })),
      violations: all.flatMap((f) => f.violations),
      omitted: all.reduce((n, f) => n + Object.values(f.omitted).reduce((m, x) => m + (x ?? 0), 0), 0),
      failOnDrift,
    };
  }
}
