import { FIELD_ERRORS, fieldError } from '../errors.js';
import { lastValue, type QueryMap } from '../python/query.js';
import type { ListOperation } from '../../openapi/operations.js';
import { follow, isObject } from '../../openapi/pointer.js';
import { pythonDecimal, pythonInt } from '../python/int.js';
import { compareStr, pyStr, strip } from '../python/str.js';

/**
 * What a collection's declared query parameters do, as DRF's standard filter backends would with
 * the view configured from them (DjangoFilterBackend with `filterset_fields`, SearchFilter,
 * OrderingFilter, in that order; PageNumberPagination's `page_size_query_param`), never more:
 * - a parameter named after an item field filters by exact match (django-filter's default lookup);
 * - `search`, with the fields its `x-search-fields` lists, is SearchFilter;
 * - `ordering`, with the fields its `enum` allows, is OrderingFilter;
 * - `page_size` lets the client choose the page size, up to its `maximum`.
 * A declared parameter none of these is is reported at load (it is accepted and ignored).
 */
export interface FieldFilter {
  /** The item field, and the query parameter named after it (`filterset_fields`). */
  readonly field: string;
  /** django-filter's filter for the model field: NumberFilter, BooleanFilter, ChoiceFilter, CharFilter. */
  readonly kind: 'number' | 'boolean' | 'choice' | 'string';
  /** The model field is an integer: the filter's Decimal is read as int() (2.5 finds 2). */
  readonly integer?: boolean;
  readonly choices?: readonly unknown[];
}

export interface SearchField {
  readonly field: string;
  /** SearchFilter's lookup prefixes: none icontains, `^` istartswith, `=` iexact. */
  readonly lookup: 'icontains' | 'istartswith' | 'iexact';
}

export interface Filters {
  readonly fields: readonly FieldFilter[];
  readonly search: { readonly param: string; readonly fields: readonly SearchField[] } | undefined;
  readonly ordering: { readonly param: string; readonly allowed: ReadonlySet<string> } | undefined;
  /**
   * `page_size_query_param` and `max_page_size`; `size`: the pagination class's own page_size,
   * the parameter schema's `default` (a class such as `page_size = 1000`), else the server's.
   */
  readonly pageSize:
    { readonly param: string; readonly max: number | undefined; readonly size: number | undefined } | undefined;
  /** Declared parameters the stub cannot apply, with why. */
  readonly unsupported: readonly { readonly param: string; readonly why: string }[];
}

function schemaOf(doc: unknown, pointer: string): Record<string, unknown> {
  const node = follow(doc, pointer).node;
  return isObject(node) ? node : {};
}

function kindOf(schema: Record<string, unknown>): FieldFilter['kind'] {
  if (Array.isArray(schema.enum)) return 'choice';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number')) return 'number';
  if (types.includes('boolean')) return 'boolean';
  return 'string';
}

/** The filters a collection's list operation declares, for items whose schema has `itemFields`. */
export function listFilters(
  doc: unknown,
  list: ListOperation,
  itemFields: readonly string[],
  itemSchemaOf: (field: string) => Record<string, unknown>,
): Filters {
  const fields: FieldFilter[] = [];
  const unsupported: { param: string; why: string }[] = [];
  let search: Filters['search'];
  let ordering: Filters['ordering'];
  let pageSize: Filters['pageSize'];
  const op = follow(doc, list.pointer).node;
  for (const p of list.parameters) {
    const decl = schemaOf(doc, p.pointer);
    const schema = schemaOf(doc, p.schemaPointer);
    if (p.name === 'format' || p.name === 'page') continue;
    if (p.name.startsWith('__')) continue;
    if (p.name === 'search') {
      const listed = decl['x-search-fields'] ?? (isObject(op) ? op['x-search-fields'] : undefined);
      if (!Array.isArray(listed) || listed.length === 0) {
        unsupported.push({
          param: p.name,
          why: 'SearchFilter needs the fields to search: list them in an x-search-fields extension on the parameter',
        });
        continue;
      }
      const searchFields = listed
        .map(String)
        .map((f): SearchField =>
          f.startsWith('^')
            ? { field: f.slice(1), lookup: 'istartswith' }
            : f.startsWith('=')
              ? { field: f.slice(1), lookup: 'iexact' }
              : { field: f, lookup: 'icontains' },
        );
      const missing = searchFields.filter((f) => !itemFields.includes(f.field)).map((f) => f.field);
      if (missing.length > 0)
        unsupported.push({
          param: p.name,
          why: `x-search-fields names ${missing.join(', ')}, not fields of ${list.itemName}`,
        });
      search = { param: p.name, fields: searchFields.filter((f) => itemFields.includes(f.field)) };
      continue;
    }
    if (p.name === 'ordering') {
      const values = Array.isArray(schema.enum)
        ? schema.enum
        : isObject(schema.items) && Array.isArray(schema.items.enum)
          ? schema.items.enum
          : undefined;
      if (!values) {
        unsupported.push({
          param: p.name,
          why: 'OrderingFilter needs the fields it may sort by: list them in the schema enum (`floor`, `-floor`)',
        });
        continue;
      }
      const allowed = new Set(
        values
          .map(String)
          .map((v) => v.replace(/^-/, ''))
          .filter((f) => itemFields.includes(f)),
      );
      ordering = { param: p.name, allowed };
      continue;
    }
    if (p.name === 'page_size') {
      pageSize = {
        param: p.name,
        max: typeof schema.maximum === 'number' ? schema.maximum : undefined,
        size:
          Number.isInteger(schema.default) && (schema.default as number) > 0 ? (schema.default as number) : undefined,
      };
      continue;
    }
    if (itemFields.includes(p.name)) {
      const itemSchema = itemSchemaOf(p.name);
      const typed = Object.keys(itemSchema).length > 0 ? itemSchema : schema;
      const kind = kindOf(typed);
      const integer = typed.type === 'integer' || (Array.isArray(typed.type) && typed.type.includes('integer'));
      fields.push({
        field: p.name,
        kind,
        ...(integer ? { integer } : {}),
        ...(kind === 'choice' ? { choices: (itemSchema.enum ?? schema.enum) as unknown[] } : {}),
      });
      continue;
    }
    unsupported.push({
      param: p.name,
      why: `not a field of ${list.itemName}, nor search, ordering or page_size: DRF's filter backends would ignore it`,
    });
  }
  return { fields, search, ordering, pageSize, unsupported };
}

type Item = Record<string, unknown>;
export type Filtered =
  | {
      ok: true;
      keep: (item: Item) => boolean;
      /** The item fields `keep` reads (an item given with only these is kept alike). */
      fields: readonly string[];
    }
  | { ok: false; errors: Record<string, string[]> | string[] };

/** DjangoFilterBackend then SearchFilter: a predicate over items, or the filter form's errors. */
export function filterPredicate(filters: Filters, query: QueryMap): Filtered {
  const tests: ((item: Item) => boolean)[] = [];
  const fields = new Set<string>();
  const errors: Record<string, string[]> = {};
  for (const f of filters.fields) {
    const raw = lastValue(query, f.field);
    if (raw === undefined || raw === '') continue;
    if (f.kind === 'number') {
      // forms.DecimalField, then django-filter's own bound (MaxValueValidator(1e50)).
      const n = pythonDecimal(raw);
      if (n === undefined) {
        errors[f.field] = [FIELD_ERRORS.ENTER_A_NUMBER];
        continue;
      }
      if (n > 1e50) {
        errors[f.field] = [fieldError(FIELD_ERRORS.MAX_VALUE, { limit_value: '1e+50' })];
        continue;
      }
      // An integer model field reads the Decimal with int(): 2.5 finds 2.
      const want = f.integer ? Math.trunc(n) : n;
      fields.add(f.field);
      tests.push((item) => typeof item[f.field] === 'number' && item[f.field] === want);
    } else if (f.kind === 'boolean') {
      // django-filter's BooleanWidget: 1/0/true/false (any case); anything else filters nothing.
      const v = ({ '1': true, '0': false, true: true, false: false } as Record<string, boolean>)[raw.toLowerCase()];
      if (v === undefined) continue;
      fields.add(f.field);
      tests.push((item) => item[f.field] === v);
    } else if (f.kind === 'choice') {
      const hit = (f.choices ?? []).find((c) => pyStr(c) === raw);
      if (hit === undefined) {
        errors[f.field] = [fieldError(FIELD_ERRORS.SELECT_A_VALID_CHOICE, { value: raw })];
        continue;
      }
      fields.add(f.field);
      tests.push((item) => item[f.field] === hit);
    } else {
      // forms.CharField: stripped, empty after stripping filters nothing, a NUL is refused.
      const value = strip(raw);
      if (value === '') continue;
      if (value.includes('\u0000')) {
        errors[f.field] = [FIELD_ERRORS.NULL_CHARACTERS];
        continue;
      }
      fields.add(f.field);
      tests.push((item) => item[f.field] !== undefined && item[f.field] !== null && pyStr(item[f.field]) === value);
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (filters.search) {
    const value = lastValue(query, filters.search.param) ?? '';
    // DRF 3.15+ reads the terms through a CharField: a NUL is a validation error (a list).
    if (value.includes('\u0000')) return { ok: false, errors: [FIELD_ERRORS.NULL_CHARACTERS] };
    const terms = searchTerms(value);
    const searched = filters.search.fields;
    if (terms.length > 0) for (const { field } of searched) fields.add(field);
    // Each term once: the terms are ANDed, so a term repeated keeps what it kept the first time.
    for (const t of new Set(terms.map((term) => term.toLowerCase()))) {
      tests.push((item) =>
        searched.some(({ field, lookup }) => {
          const v = item[field];
          if (v === null || v === undefined || typeof v === 'object') return false;
          const text = (typeof v === 'boolean' ? (v ? '1' : '0') : String(v)).toLowerCase();
          return lookup === 'iexact' ? text === t : lookup === 'istartswith' ? text.startsWith(t) : text.includes(t);
        }),
      );
    }
  }
  return { ok: true, keep: (item) => tests.every((t) => t(item)), fields: [...fields] };
}

/** SearchFilter's terms (DRF 3.15+ search_smart_split): quoted phrases kept, commas split. */
export function searchTerms(value: string): string[] {
  const out: string[] = [];
  for (const m of value.matchAll(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\S+/g)) {
    const term = m[0].replace(/^,+|,+$/g, '');
    // A quoted phrase is one term (a lone quote is an empty one, which matches everything).
    if ((term.startsWith('"') || term.startsWith("'")) && term[0] === term[term.length - 1]) {
      out.push(term.slice(1, -1).replace(/\\(.)/g, '$1'));
    } else {
      for (const sub of term.split(',')) if (sub) out.push(sub.trim());
    }
  }
  return out.filter(Boolean);
}

/** OrderingFilter: the valid terms of `ordering`, in order; none means the collection's own order. */
export function orderingTerms(filters: Filters, query: QueryMap): { field: string; desc: boolean }[] {
  if (!filters.ordering) return [];
  const raw = lastValue(query, filters.ordering.param);
  if (!raw) return [];
  const allowed = filters.ordering.allowed;
  // A field named again orders nothing more (its first term already decided every tie it could):
  // kept once, so that `floor,floor,…` costs one comparison, as SQL's planner drops it too.
  const seen = new Set<string>();
  const out: { field: string; desc: boolean }[] = [];
  for (const raw1 of raw.split(',')) {
    const t = raw1.trim();
    const field = t.replace(/^-/, '');
    if (!allowed.has(field) || seen.has(field)) continue;
    seen.add(field);
    out.push({ field, desc: t.startsWith('-') });
  }
  return out;
}

/** SQL's order of two values: NULL first, numbers by value, text by code point, false before true. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return (a ? 1 : 0) - (b ? 1 : 0);
  return compareStr(String(a), String(b));
}

/** PageNumberPagination.get_page_size with `page_size_query_param`: a positive int, capped; else the default. */
export function pageSizeOf(filters: Filters, query: QueryMap, serverSize: number): number {
  if (!filters.pageSize) return serverSize;
  const fallback = filters.pageSize.size ?? serverSize;
  const raw = lastValue(query, filters.pageSize.param);
  // _positive_int(value, strict=True, cutoff=max_page_size): Python's int(), above 0; else the default.
  const n = raw === undefined ? undefined : pythonInt(raw);
  if (n === undefined || n <= 0n) return fallback;
  const size = n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
  return filters.pageSize.max !== undefined ? Math.min(size, filters.pageSize.max) : size;
}
