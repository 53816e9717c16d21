import { describeViolation, toViolation, type ContractAjv } from '../openapi/ajv.js';
import type { LoadProblem } from './errors.js';
import type { DetailOperation, ListOperation } from '../openapi/operations.js';
import { isObject, pointerOf } from '../openapi/pointer.js';
import { PkIndex } from '../core/pk-index.js';
import { carriesAny, pkOf, withoutMembers } from '../core/prepared-items.js';
import { PK_SEGMENT } from '../core/django/urls.js';

/** A stand-in deployment for validating stored items, whose urls are built per request. */
const VALIDATION_BASE = 'http://stub.invalid';

export interface CheckContext {
  readonly ajv: ContractAjv;
  readonly list: ListOperation;
  readonly detail: DetailOperation | undefined;
  /** Items carry a url built per request. */
  readonly withUrl: boolean;
  /** The field items are looked up by (and their url is built from). */
  readonly lookup: string | undefined;
  /** The file (or spec place) the items come from, for problems. */
  readonly file: string;
  /** Items a designer stored (a fixture): a `url` there is a mistake, not something to strip. */
  readonly stored: boolean;
  /**
   * The item schema's writeOnly fields: never served, so an item is checked without them (the
   * contract's Ajv refuses them in an answer; the loader warns of a fixture that carries them).
   */
  readonly writeOnly?: readonly string[];
}

/**
 * Checks items before they are served: each validates against the item schema (with the url the
 * stub would build), pks are unique and can stand in a path. Every problem is reported, the item's
 * index in the file first in its JSON pointer. Answers the items that passed, urls stripped.
 * Written for a million items: one validation per item, one shallow copy where a url is added.
 */
export function checkItems(raw: readonly unknown[], ctx: CheckContext, problems: LoadProblem[]): unknown[] {
  const check = itemChecker(ctx, problems);
  const out: unknown[] = [];
  for (let index = 0; index < raw.length; index++) {
    const item = check(raw[index], index);
    if (item !== undefined) out.push(item);
  }
  return out;
}

/**
 * The check of one item after another (a fixture streamed item by item): the item as it will be
 * served (urls stripped), or undefined with its problems reported. Remembers the pks seen, to
 * report a repeated one.
 */
export interface ItemCheck {
  (value: unknown, index: number, trusted?: boolean): Record<string, unknown> | undefined;
  /**
   * An item taken unparsed (the same as before under the same spec, or checked as its bytes were
   * read: load/flat-items.ts): only its pk is checked.
   */
  reused(pk: string | undefined, index: number): boolean;
  /** The pks of the items that passed, each at its index: the served set's pk index when every item passed. */
  readonly pks: PkIndex;
}

/** The url the schema sees for every item: its shape is the stub's, whatever the pk. */
export function validationUrlOf({ detail }: Pick<CheckContext, 'detail'>): string {
  const [pathBefore = '', pathAfter = ''] = detail ? detail.path.split(`{${detail.pkParam}}`) : ['', ''];
  return `${VALIDATION_BASE}${pathBefore}1${pathAfter}?format=api`;
}

export function itemChecker(ctx: CheckContext, problems: LoadProblem[]): ItemCheck {
  const { list, withUrl, lookup } = ctx;
  let validate: ReturnType<ContractAjv['validator']> | undefined;
  const pks = new PkIndex();
  const validationUrl = validationUrlOf(ctx);
  const problem = (index: number, tokens: (string | number)[], reason: string) =>
    problems.push({ file: ctx.file, pointer: pointerOf([index, ...tokens]), reason });
  const unique = (pk: string | undefined, index: number): boolean => {
    const earlier = pks.add(pk, index);
    if (earlier === -1) return true;
    problem(index, [lookup ?? 'pk'], `repeats ${lookup ?? 'pk'} ${pk} of item ${earlier}`);
    return false;
  };
  const check = (value: unknown, index: number, trusted = false): Record<string, unknown> | undefined => {
    if (!isObject(value)) {
      problem(index, [], 'an item is a JSON object');
      return undefined;
    }
    let item = carriesAny(value, ctx.writeOnly) ? withoutMembers(value, ctx.writeOnly as readonly string[]) : value;
    const pk = pkOf(item, lookup);
    if (withUrl) {
      if ('url' in item) {
        if (ctx.stored) {
          problem(
            index,
            ['url'],
            'url is built per request from the deployment that serves it (§9.2); remove it from the fixture',
          );
          return undefined;
        }
        const { url: _url, ...rest } = item;
        item = rest;
      }
      if (pk === undefined || !PK_SEGMENT.test(pk)) {
        problem(
          index,
          [lookup ?? 'pk'],
          `${lookup ?? 'pk'} must be a number or a string matching [^/.]+ (it forms the last segment of url)`,
        );
        return undefined;
      }
    }
    // `trusted`: the same item under the same spec passed this check in the state before.
    if (!trusted) {
      validate ??= ctx.ajv.validator(list.itemPointer);
      // The item as served, with the url the stub would build. A stored item is this load's own
      // (parsed from its file): the url is added in place and deleted again (V8 undoes the last
      // property added without copying), no copy of a million objects; others are copied.
      const checked = withUrl ? (ctx.stored ? item : { ...item }) : item;
      if (withUrl) checked.url = validationUrl;
      const valid = validate(checked);
      if (withUrl) delete checked.url;
      if (!valid) {
        for (const e of validate.errors ?? []) {
          const v = toViolation(e);
          problem(index, v.pointer.split('/').slice(1), describeViolation(v));
        }
        return undefined;
      }
    }
    if (!unique(pk, index)) return undefined;
    return item;
  };
  return Object.assign(check, { reused: unique, pks });
}
