import { escapeUriPath, iriToUri, itemUrl } from '../django/urls.js';
import { detailBody, DRF_ERRORS, FIELD_ERRORS, fieldError, noMatchDetail } from '../errors.js';
import type { LiveCollection } from '../live.js';
import type { CollectionModel, Model } from '../model.js';
import { pythonInt } from '../python/int.js';
import { lastValue, parseQuery, type QueryMap } from '../python/query.js';
import type { CoreAnswer, RequestContext } from '../request.js';
import { filterAndOrder } from '../django/queryset.js';
import { drfJson, EMPTY_SET, type ItemSet, itemObject, type PreparedItem, renderItem } from '../prepared-items.js';
import { fieldSchema, itemMembers } from '../../openapi/item-schema.js';
import { isObject } from '../../openapi/pointer.js';
import type { WriteOperation } from '../../openapi/operations.js';
import { filterPredicate, orderingTerms, pageSizeOf } from './filters.js';
import { choosePage, pageLinks } from './pagination.js';
import { parseBody } from './parsers.js';
import { camelcaseToSpaces } from './metadata.js';
import { itemUrlParts, renderEnvelope } from './renderers.js';
import { type FieldRule, serializerFields, validateInput } from './serializers.js';
import { refusedBody, respond, respondEmpty, respondError, type View } from './views.js';
import { withHeaders } from '../members.js';

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

/** The url parts of the items of an answer, when the collection's items carry a url. */
export function urlOf(ctx: RequestContext, vs: ViewSet, suffix: string | undefined) {
  const { collection } = vs;
  // withUrl holds only with a detail operation (buildsUrl): its path is the item path.
  if (!collection.withUrl) return undefined;
  return itemUrlParts(ctx.baseUrl, collection.detail, lastValue(ctx.query, 'format'), suffix);
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
  const { collection } = vs;
  // DjangoFilterBackend, SearchFilter and OrderingFilter, read from the list's columns.
  const filtered = filterPredicate(collection.filters, ctx.query);
  if (!filtered.ok) return respond(view, 400, drfJson(filtered.errors));
  // The list itself where no parameter filters or orders it (filterAndOrder answers it at once).
  const items = filterAndOrder(set.items, filtered, orderingTerms(collection.filters, ctx.query));
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
  if (active && !filtered.keep(itemObject(found)))
    return respond(view, 404, detailBody(noMatchDetail(modelOf(vs, view))));
  return respond(view, 200, renderItem(found, urlOf(ctx, vs, ctx.suffix)));
}

/** get_object: the url segment read as the lookup field's type, then the item, or DRF's 404s. */
export function getObject(ctx: RequestContext, view: View, vs: ViewSet, set: ItemSet): PreparedItem | CoreAnswer {
  const key = lookupKey(vs, ctx.params[0] ?? '');
  if (key === undefined) return respondError(view, DRF_ERRORS.NOT_FOUND);
  return set.byPk.get(key) ?? respond(view, 404, detailBody(noMatchDetail(modelOf(vs, view))));
}

/**
 * The pk a url segment names, as the lookup field's type reads it: for an integer field Django's
 * IntegerField.to_python, int() of the text (undefined where int() refuses it: DRF's 404 "Not
 * found."). Items without a lookup field are looked up by their row's pk, an AutoField's integer.
 */
export function lookupKey(vs: ViewSet, raw: string): string | undefined {
  const { collection } = vs;
  if (!(collection.detail?.pkIsInteger ?? isIntegerLookup(vs.model, collection))) return raw;
  return pythonInt(raw)?.toString();
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

/** What a write takes: the item it changes (an update or a destroy), and the body as validated. */
export interface WriteInput {
  readonly existing: PreparedItem | undefined;
  readonly values: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A write's input as DRF reads it: get_object() first (an update or a destroy: its 404s), then
 * the body through the serializer (DestroyModelMixin reads none), unique fields checked against
 * the whole table.
 */
export function writeInput(ctx: RequestContext, view: View, vs: ViewSet, op: WriteOperation): WriteInput | CoreAnswer {
  const { collection, live } = vs;
  let existing: PreparedItem | undefined;
  if (op.target === 'detail') {
    const filtered = filterPredicate(collection.filters, ctx.query);
    if (!filtered.ok) return respond(view, 400, drfJson(filtered.errors));
    const found = getObject(ctx, view, vs, visible(vs, view, live.set));
    if ('status' in found) return found;
    existing = found;
    if (op.method === 'DELETE') return { existing, values: undefined };
  }
  const model = collection.list.modelName;
  const valid = validatedBody(ctx, view, serializerRules(vs.model, collection, op), op.method === 'PATCH', {
    taken: (field, value) => live.isTaken(field, value, existing),
    // Django's unique error, as DRF's ModelSerializer words it (the model's verbose name, the field's).
    message: (field) =>
      fieldError(FIELD_ERRORS.UNIQUE, {
        model_name: camelcaseToSpaces(model).toLowerCase(),
        field_label: field.replaceAll('_', ' '),
      }),
  });
  return 'status' in valid ? valid : { existing, values: valid.values };
}

/**
 * CreateModelMixin, UpdateModelMixin and DestroyModelMixin on the live copy of the collection:
 * 201 / 200 / 204. `input`: what writeInput gave already (a handler's request went through it).
 */
export function write(
  ctx: RequestContext,
  view: View,
  vs: ViewSet,
  op: WriteOperation,
  input?: WriteInput,
): CoreAnswer {
  const read = input ?? writeInput(ctx, view, vs, op);
  if ('status' in read) return read;
  const { live } = vs;
  const { existing } = read;
  if (op.method === 'DELETE') {
    if (existing) live.remove(existing);
    return respondEmpty(view, 204);
  }
  const defaults = new Map(
    serializerRules(vs.model, vs.collection, op).flatMap((r) =>
      r.default ? [[r.name, r.default.value] as const] : [],
    ),
  );
  const values = itemValues(vs, read.values ?? {}, existing ? itemObject(existing) : undefined, defaults);
  const item = existing ? live.replace(existing, values) : live.insert(values);
  // The item's url is built for the plain item path: writes have no format suffix.
  const url = urlOf(ctx, vs, undefined);
  const answer = respond(view, existing ? 200 : 201, renderItem(item, url));
  if (existing || item.urlAt < 0 || url === undefined || item.pk === undefined) return answer;
  // CreateModelMixin.get_success_headers: Location is the created item's url.
  return withHeaders(answer, { location: itemUrl(url, item.pk) });
}

/** The model of the queryset the client gets (its DoesNotExist names it in a 404). */
function modelOf(vs: ViewSet, view: View): string {
  const q = vs.collection.list.queryset;
  return q.anonymous === 'none' && !view.user && q.anonymousModel !== undefined
    ? q.anonymousModel
    : vs.collection.list.modelName;
}

/** The queryset as the client sees it: nothing at all for an anonymous one where `x-queryset` says so. */
export function visible(vs: ViewSet, view: View, set: ItemSet): ItemSet {
  return vs.collection.list.queryset.anonymous === 'none' && !view.user ? EMPTY_SET : set;
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
  unique?: { taken(field: string, value: unknown): boolean; message(field: string): string },
): { values: Record<string, unknown> } | CoreAnswer {
  const parsed = parseBody(ctx.header('content-type'), ctx.body);
  if (!parsed.ok) return refusedBody(view, parsed);
  const valid = validateInput(rules, parsed.data, { partial, form: parsed.form, unique });
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
  /** The model's defaults as the request body's schema gives them (`default`). */
  defaults: ReadonlyMap<string, unknown> = new Map(),
): Record<string, unknown> {
  const { collection, live } = vs;
  const values: Record<string, unknown> = {};
  // The item schema's members, read once (for a field neither given nor kept nor defaulted).
  let schemas: ReadonlyMap<string, unknown> | undefined;
  for (const field of collection.fields) {
    if (field === 'url') continue;
    if (Object.hasOwn(given, field)) values[field] = given[field];
    else if (before && Object.hasOwn(before, field)) values[field] = before[field];
    else if (!before && field === collection.lookup && (field === 'pk' || field === 'id'))
      values[field] = live.nextPk();
    else if (!before && defaults.has(field)) values[field] = defaults.get(field);
    else if (!before) {
      schemas ??= itemMembers(vs.model.spec, collection.list.itemPointer).schemas;
      const schema = schemas.get(field);
      values[field] = isObject(schema) && 'default' in schema ? schema.default : null;
    }
  }
  return values;
}

/** Without a GET on the item path, the lookup is an integer when the item schema says so. */
function isIntegerLookup(model: Model, collection: CollectionModel): boolean {
  if (collection.lookup === undefined) return true;
  return fieldSchema(model.spec, collection.list.itemPointer, collection.lookup).type === 'integer';
}
