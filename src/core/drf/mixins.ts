import { escapeUriPath, iriToUri, itemUrl } from '../django/urls.js';
import { detailBody, DRF_ERRORS, noMatchDetail } from '../errors.js';
import type { LiveCollection } from '../live.js';
import type { CollectionModel, Model } from '../model.js';
import { pythonInt } from '../python/int.js';
import { lastValue, parseQuery, type QueryMap } from '../python/query.js';
import type { CoreAnswer, RequestContext } from '../request.js';
import { drfJson, type ItemList, type ItemSet, type PreparedItem, renderItem } from '../store.js';
import { fieldSchema } from '../../openapi/item-schema.js';
import type { WriteOperation } from '../../openapi/operations.js';
import { compareValues, filterPredicate, orderingTerms, pageSizeOf } from './filters.js';
import { choosePage, pageLinks } from './pagination.js';
import { parseBody } from './parsers.js';
import { itemUrlParts, renderEnvelope } from './renderers.js';
import { type FieldRule, serializerFields, validateInput } from './serializers.js';
import { respond, respondEmpty, respondError, type View } from './views.js';

/**
 * A ModelViewSet's actions (rest_framework/mixins.py, generics.py) over one collection: list and
 * retrieve through the filter backends and the paginator, create / update / destroy on the live
 * copy of the collection.
 */
export interface ViewSet {
  readonly model: Model;
  readonly collection: CollectionModel;
  readonly live: LiveCollection;
  /** PageNumberPagination's PAGE_SIZE. */
  readonly pageSize: number;
}

/** Every item of a set as one array, kept per set (the set's own when it is one). */
const arrays = new WeakMap<ItemSet, readonly PreparedItem[]>();
function allItems(set: ItemSet): readonly PreparedItem[] {
  if (Array.isArray(set.items)) return set.items as readonly PreparedItem[];
  let all = arrays.get(set);
  if (all === undefined) {
    all = Array.from(set.items);
    arrays.set(set, all);
  }
  return all;
}

/** The url parts of the items of an answer, when the collection's items carry a url. */
export function urlOf(ctx: RequestContext, vs: ViewSet, suffix: string | undefined) {
  const { collection } = vs;
  if (!collection.withUrl) return undefined;
  const detail = collection.detail ?? { path: collection.itemRoute?.path ?? '', pkParam: pkParamOf(collection) };
  return itemUrlParts(ctx.baseUrl, detail, lastValue(ctx.query, 'format'), suffix);
}

/**
 * ListModelMixin.list: the queryset through DjangoFilterBackend, SearchFilter and OrderingFilter,
 * then PageNumberPagination (`linkQuery`: the query that links keep).
 */
export function list(
  ctx: RequestContext,
  view: View,
  vs: ViewSet,
  set: ItemSet,
  linkQuery: (q: QueryMap) => QueryMap,
): CoreAnswer {
  const { collection, live } = vs;
  const filtered = filterPredicate(collection.filters, ctx.query);
  if (!filtered.ok) return respond(view, 400, drfJson(filtered.errors));
  const active = collection.filters.fields.length > 0 || collection.filters.search !== undefined;
  let items: ItemList = set.items;
  const ordering = orderingTerms(collection.filters, ctx.query);
  // Filters and ordering read every item's values, parsed once per item.
  if (active) items = allItems(set).filter((item) => filtered.keep(live.object(item)));
  if (ordering.length > 0) {
    items = [...(items === set.items ? allItems(set) : items)].sort((a, b) => {
      const x = live.object(a);
      const y = live.object(b);
      for (const { field, desc } of ordering) {
        const d = compareValues(x[field], y[field]);
        if (d !== 0) return desc ? -d : d;
      }
      return 0;
    });
  }
  const count = items.length;
  const pageSize = pageSizeOf(collection.filters, ctx.query, vs.pageSize);
  const choice = choosePage(lastValue(ctx.query, 'page'), count, pageSize);
  if (!choice.ok) return respondError(view, DRF_ERRORS.INVALID_PAGE);
  const start = (choice.page - 1) * pageSize;
  const links = pageLinks(
    `${ctx.baseUrl}${escapeUriPath(ctx.path)}`,
    linkQuery(ctx.rawQuery === '' ? ctx.query : parseQuery(iriToUri(ctx.rawQuery))),
    choice.page,
    choice.numPages,
  );
  const url = urlOf(ctx, vs, ctx.suffix);
  return respond(
    view,
    200,
    renderEnvelope(count, links.next, links.previous, items.slice(start, start + pageSize), url),
  );
}

/** RetrieveModelMixin.retrieve: get_object() through the filter backends, then the item. */
export function retrieve(ctx: RequestContext, view: View, vs: ViewSet, set: ItemSet): CoreAnswer {
  const { collection } = vs;
  const filtered = filterPredicate(collection.filters, ctx.query);
  if (!filtered.ok) return respond(view, 400, drfJson(filtered.errors));
  const found = getObject(ctx, view, vs, set);
  if ('status' in found) return found;
  const active = collection.filters.fields.length > 0 || collection.filters.search !== undefined;
  if (active && !filtered.keep(vs.live.object(found)))
    return respond(view, 404, detailBody(noMatchDetail(collection.list.itemName)));
  return respond(view, 200, renderItem(found, urlOf(ctx, vs, ctx.suffix)));
}

/** get_object: the url segment read as the lookup field's type, then the item, or DRF's 404s. */
export function getObject(ctx: RequestContext, view: View, vs: ViewSet, set: ItemSet): PreparedItem | CoreAnswer {
  const { collection } = vs;
  const raw = ctx.params[0] ?? '';
  let key = raw;
  if (collection.detail?.pkIsInteger ?? isIntegerLookup(vs.model, collection)) {
    // Django's IntegerField.to_python: int() of the url segment, else DRF's 404 "Not found.".
    const n = pythonInt(raw);
    if (n === undefined) return respondError(view, DRF_ERRORS.NOT_FOUND);
    key = n.toString();
  }
  const item = collection.lookup === undefined ? undefined : set.byPk.get(key);
  return item ?? respond(view, 404, detailBody(noMatchDetail(collection.list.itemName)));
}

/** The serializer's fields for a write: its request body's schema, else the item's (one list per operation). */
const rulesByModel = new WeakMap<Model, Map<string, FieldRule[]>>();
export function serializerRules(model: Model, collection: CollectionModel, op: WriteOperation): FieldRule[] {
  let byOp = rulesByModel.get(model);
  if (!byOp) rulesByModel.set(model, (byOp = new Map()));
  let rules = byOp.get(op.pointer);
  if (!rules) {
    const readOnly = new Set(['url', 'pk', ...(collection.lookup === 'id' ? ['id'] : [])]);
    rules = serializerFields(model.spec, op.bodyPointer ?? collection.list.itemPointer, readOnly);
    byOp.set(op.pointer, rules);
  }
  return rules;
}

/**
 * CreateModelMixin, UpdateModelMixin and DestroyModelMixin on the live copy of the collection:
 * the item looked up (update, destroy), the body parsed and validated, then 201 / 200 / 204.
 */
export function write(
  ctx: RequestContext,
  view: View,
  vs: ViewSet,
  op: WriteOperation,
  validated?: Readonly<Record<string, unknown>>,
): CoreAnswer {
  const { collection, live } = vs;
  let existing: PreparedItem | undefined;
  if (op.target === 'detail') {
    const filtered = filterPredicate(collection.filters, ctx.query);
    if (!filtered.ok) return respond(view, 400, drfJson(filtered.errors));
    const found = getObject(ctx, view, vs, live.set);
    if ('status' in found) return found;
    existing = found;
    if (op.method === 'DELETE') {
      live.remove(existing);
      return respondEmpty(view, 204);
    }
  }
  const valid =
    validated === undefined
      ? validatedBody(ctx, view, serializerRules(vs.model, collection, op), op.method === 'PATCH')
      : { values: validated };
  if ('status' in valid) return valid;
  const values = itemValues(vs, valid.values, existing ? live.object(existing) : undefined);
  const item = existing ? live.replace(existing, values) : live.insert(values);
  // The item's url is built for the plain item path: writes have no format suffix.
  const url = urlOf(ctx, vs, undefined);
  const answer = respond(view, existing ? 200 : 201, renderItem(item, url));
  if (existing || item.urlAt < 0 || url === undefined || item.pk === undefined) return answer;
  // CreateModelMixin.get_success_headers: Location is the created item's url.
  return { ...answer, headers: { ...answer.headers, location: itemUrl(url, item.pk) } };
}

function pkParamOf(collection: CollectionModel): string {
  return collection.itemRoute ? (/\{([^}]+)\}$/.exec(collection.itemRoute.path)?.[1] ?? 'pk') : 'pk';
}

/** Without a GET on the item path, the lookup is an integer when the item schema says so. */
function isIntegerLookup(model: Model, collection: CollectionModel): boolean {
  if (collection.lookup === undefined) return false;
  return fieldSchema(model.spec, collection.list.itemPointer, collection.lookup).type === 'integer';
}

/**
 * `request.data` through the serializer: the body parsed by its Content-Type (JSONParser,
 * FormParser, MultiPartParser), then validated (400 with every field's errors).
 */
export function validatedBody(
  ctx: RequestContext,
  view: View,
  rules: readonly FieldRule[],
  partial: boolean,
): { values: Record<string, unknown> } | CoreAnswer {
  const parsed = parseBody(ctx.header('content-type'), ctx.body);
  if (!parsed.ok) return respond(view, parsed.status, detailBody(parsed.detail));
  const valid = validateInput([...rules], parsed.data, { partial, form: parsed.form });
  return valid.ok ? { values: valid.values } : respond(view, 400, drfJson(valid.errors));
}

/**
 * The members of an item saved from validated values: given ones, else the item's own (an
 * update), else a new pk (AutoField) or the field's default (a create).
 */
export function itemValues(
  vs: ViewSet,
  given: Readonly<Record<string, unknown>>,
  before: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const { collection, live } = vs;
  const values: Record<string, unknown> = {};
  for (const field of collection.fields) {
    if (field === 'url') continue;
    if (Object.hasOwn(given, field)) values[field] = given[field];
    else if (before && Object.hasOwn(before, field)) values[field] = before[field];
    else if (!before && field === collection.lookup && (field === 'pk' || field === 'id'))
      values[field] = live.nextPk();
    else if (!before) {
      const schema = fieldSchema(vs.model.spec, collection.list.itemPointer, field);
      values[field] = 'default' in schema ? schema.default : null;
    }
  }
  return values;
}
