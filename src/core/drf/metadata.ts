import type { AnyOperation, PathRoute, Renderer, WriteOperation } from '../../openapi/operations.js';
import { capfirst, pyStr } from '../python/str.js';
import type { CoreAnswer } from '../request.js';
import { drfJson } from '../prepared-items.js';
import type { FieldRule } from './serializers.js';
import { respond, type View } from './views.js';

/**
 * DRF's OPTIONS answer, SimpleMetadata (rest_framework/metadata.py): the view's name and
 * description, what it renders and parses. A viewset's name is its class name, `<Item>ViewSet`,
 * without `ViewSet`, in words, with the route's suffix (views.get_view_name); its description is
 * its docstring: none unless the list operation states one (`x-view-description`).
 */

// rest_framework/utils/formatting.py camelcase_to_spaces, then str.title().
export function camelcaseToSpaces(name: string): string {
  const spaced = name.replace(/((?<=[a-z])[A-Z])|([A-Z](?![A-Z]|$))/g, ' $&').trim();
  return spaced
    .split('_')
    .join(' ')
    .replace(/[A-Za-z]+/g, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

/** A viewset's serializer, as OPTIONS shows it. */
export interface ViewsetFields {
  /** The viewset's class name without `ViewSet` (`x-view-name`, else the item's name). */
  readonly name: string;
  /** Its docstring (`x-view-description`). */
  readonly description: string;
  /** The item's fields, in order. */
  readonly itemFields: readonly string[];
  /** The serializer's fields for a write operation. */
  readonly rulesOf: (op: WriteOperation) => readonly FieldRule[];
  /** The item's own fields, read-only as the serializer has them (`pk` an integer, `held_today` a boolean). */
  readonly itemRules: readonly FieldRule[];
  /** `view.get_object()` succeeds (SimpleMetadata shows PUT only then). */
  readonly canFetch: () => boolean;
}

/**
 * APIView.options: SimpleMetadata.determine_metadata of the view of a route, with a viewset's
 * serializer fields for a POST or a PUT (`viewset`: a collection's list or item path).
 */
export function options(
  view: View,
  route: PathRoute,
  renderers: readonly Renderer[],
  viewset: ViewsetFields | undefined,
): CoreAnswer {
  if (viewset === undefined || (route.kind !== 'list' && route.kind !== 'detail')) {
    const op = route.methods.values().next().value as AnyOperation;
    return respond(view, 200, drfJson(viewMetadata(actionName(route, op), '', renderers)));
  }
  const suffix = route.kind === 'list' ? 'List' : 'Instance';
  const actions = determineActions(route, viewset);
  const name = `${camelcaseToSpaces(viewset.name)} ${suffix}`;
  return respond(view, 200, drfJson(viewMetadata(name, viewset.description, renderers, actions)));
}

/** DRF's name of an extra action (`pretty_name` of its function) or of a view. */
function actionName(route: PathRoute, op: AnyOperation): string {
  const words = (route.urlPath || op.operationId).replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The parsers of DRF's default DEFAULT_PARSER_CLASSES. */
const PARSES = Object.freeze(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);

export function viewMetadata(
  name: string,
  description: string,
  renderers: readonly Renderer[],
  actions?: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name,
    description,
    renders: renderers.map((r) => r.mediaType),
    parses: PARSES,
  };
  if (actions !== undefined && Object.keys(actions).length > 0) out.actions = actions;
  return out;
}

/**
 * SimpleMetadata.determine_actions: for a view with POST (a list) or PUT (an item the client can
 * fetch: `canFetch`), the serializer's fields (get_serializer_info), in the item's field order.
 */
function determineActions(route: PathRoute, viewset: ViewsetFields): Record<string, unknown> | undefined {
  const method = route.methods.has('POST') ? 'POST' : route.methods.has('PUT') ? 'PUT' : undefined;
  if (method === undefined) return undefined;
  if (method === 'PUT' && !viewset.canFetch()) return undefined;
  const rules = new Map(viewset.rulesOf(route.methods.get(method) as WriteOperation).map((r) => [r.name, r]));
  const readOnly = new Map(viewset.itemRules.map((r) => [r.name, { ...r, readOnly: true, required: false }]));
  const info: Record<string, unknown> = {};
  for (const name of new Set([...viewset.itemFields, ...rules.keys()]))
    info[name] = fieldInfo(name, rules.get(name) ?? readOnly.get(name));
  return { [method]: info };
}

/** SimpleMetadata.get_field_info. */
function fieldInfo(name: string, rule: FieldRule | undefined): Record<string, unknown> {
  const readOnly = rule?.readOnly ?? true;
  const field: Record<string, unknown> = {
    type: name === 'url' ? 'field' : fieldType(rule),
    required: rule?.required ?? false,
    read_only: readOnly,
    label: name === 'pk' || name === 'id' ? 'ID' : capfirst(name.replaceAll('_', ' ')),
  };
  if (rule?.minLength !== undefined) field.min_length = rule.minLength;
  if (rule?.maxLength !== undefined) field.max_length = rule.maxLength;
  if (rule?.minimum !== undefined) field.min_value = rule.minimum;
  if (rule?.maximum !== undefined) field.max_value = rule.maximum;
  if (!readOnly && rule?.choices)
    field.choices = rule.choices.map((c, i) => ({ value: c, display_name: rule.choiceNames?.[i] ?? pyStr(c) }));
  return field;
}

/** SimpleMetadata.label_lookup for the field a rule describes. */
function fieldType(rule: FieldRule | undefined): string {
  if (!rule || rule.computed === true) return 'field';
  if (rule.kind === 'number') return 'float';
  if (rule.kind === 'list') return 'list';
  if (rule.kind === 'dict') return 'nested object';
  if (rule.kind === 'any') return 'field';
  if (rule.kind === 'string') return STRING_TYPES.get(rule.format ?? '') ?? 'string';
  return rule.kind;
}

/** The label of a string field by its format (a Map: a format named like `constructor` is no member). */
const STRING_TYPES: ReadonlyMap<string, string> = new Map([
  ['email', 'email'],
  ['uri', 'url'],
  ['url', 'url'],
  ['date', 'date'],
  ['date-time', 'datetime'],
]);
