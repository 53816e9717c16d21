import { isObject } from './pointer.js';

/**
 * A viewset's queryset beyond its table (`x-queryset` on the list operation): `filter`, the
 * members every item it serves has (`{"active": true}`: a manager's filter; other items exist,
 * unseen); `ordering`, the model's Meta.ordering (`["building", "floor", "number"]`, `-pk` for
 * descending); `anonymous: "none"`, a get_queryset that answers nothing to an anonymous client.
 */
export interface Queryset {
  readonly filter: Readonly<Record<string, unknown>> | undefined;
  readonly ordering: readonly { readonly field: string; readonly desc: boolean }[];
  readonly anonymous: 'all' | 'none';
  /** The model of the empty queryset an anonymous client gets, when not the viewset's (`Expense.objects.none()`). */
  readonly anonymousModel: string | undefined;
}

/** Whether a queryset holds its table as it stands: no filter, no ordering. */
export function isWholeTable(q: Queryset): boolean {
  return q.filter === undefined && q.ordering.length === 0;
}

const NO_QUERYSET: Queryset = Object.freeze({
  filter: undefined,
  ordering: [],
  anonymous: 'all',
  anonymousModel: undefined,
});

/** `x-queryset`, read and checked (a problem for each member that is not as documented). */
export function querysetOf(
  value: unknown,
  pointer: string,
  problem: (pointer: string, reason: string) => void,
): Queryset {
  if (value === undefined) return NO_QUERYSET;
  if (!isObject(value)) {
    problem(pointer, 'must be an object with filter, ordering and anonymous');
    return NO_QUERYSET;
  }
  const out: { -readonly [K in keyof Queryset]: Queryset[K] } = { ...NO_QUERYSET };
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (key === 'filter') {
      if (isObject(v)) out.filter = v;
      else problem(`${pointer}/filter`, 'must be an object of item members and the value each must have');
    } else if (key === 'ordering') {
      if (Array.isArray(v) && v.every((f) => typeof f === 'string' && /^-?[^-]/.test(f)))
        out.ordering = (v as string[]).map((f) => ({ field: f.replace(/^-/, ''), desc: f.startsWith('-') }));
      else problem(`${pointer}/ordering`, 'must be a list of item fields, each "-field" for descending');
    } else if (key === 'anonymousModel') {
      if (typeof v === 'string' && v !== '') out.anonymousModel = v;
      else problem(`${pointer}/anonymousModel`, 'must name a model, such as "Expense"');
    } else if (key === 'anonymous') {
      if (v === 'none' || v === 'all') out.anonymous = v;
      else problem(`${pointer}/anonymous`, 'must be "none" (an anonymous client sees no item) or "all"');
    } else
      problem(`${pointer}/${key}`, 'unknown member: x-queryset has filter, ordering, anonymous and anonymousModel');
  }
  return out;
}
