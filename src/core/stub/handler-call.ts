import { DJANGO_ERRORS, djangoPage, DRF_ERRORS, STUB_PROBLEMS, stubProblem } from '../errors.js';
import { getObject, urlOf, validatedBody, type ViewSet, visible, type WriteInput, writeInput } from '../drf/mixins.js';
import { parseBody } from '../drf/parsers.js';
import { serializerFields } from '../drf/serializers.js';
import { refusedBody, respond, type View } from '../drf/views.js';
import type { CollectionModel, Model } from '../model.js';
import type { QueryMap } from '../python/query.js';
import type { AnswerViolation, CoreAnswer, CoreOptions, RequestContext } from '../request.js';
import { renderAnswer } from './declared.js';
import type { CollectionAccess, Handler, HandlerAnswer, HandlerContext, HandlerResult } from './handler-types.js';
import { collectionAccess, handlerRequest, paramNames } from './handlers.js';
import type { AnyOperation, PathRoute } from '../../openapi/operations.js';

/*
 * Step 9.2 of docs/response-selection.md: the designer's handler for an operation, called with the
 * request as DRF would hand it to a view, its answer held to the spec.
 */

/** What a handler call needs of the stub around it. */
export interface HandlerScope {
  readonly model: Model;
  readonly options: CoreOptions;
  /** The viewset of a collection, over the state of the request's session. */
  readonly viewSet: (collection: CollectionModel) => ViewSet;
  /** Tells the stub its state changed (answers kept from before are stale). */
  readonly changed: () => void;
}

/** A request's body as a handler gets it: validated values, or parsed data; a write's input kept for its standard answer. */
export interface RequestBody {
  readonly values: Readonly<Record<string, unknown>> | undefined;
  readonly data: unknown;
  readonly input?: WriteInput;
}

/**
 * The body a handler gets: validated by the serializer the operation declares (a write's, or the
 * request schema of an action or a view), else as parsed; a body DRF would refuse is answered as
 * DRF answers it, before any handler.
 */
export function requestBody(
  model: Model,
  ctx: RequestContext,
  view: View,
  vs: ViewSet | undefined,
  op: AnyOperation,
): RequestBody | CoreAnswer {
  if (op.kind === 'write' && vs !== undefined) {
    const input = writeInput(ctx, view, vs, op);
    return 'status' in input ? input : { values: input.values, data: input.values, input };
  }
  if (op.kind !== 'custom' || (ctx.body === undefined && op.bodyPointer === undefined))
    return { values: undefined, data: undefined };
  const rules = op.bodyPointer === undefined ? [] : serializerFields(model.spec, op.bodyPointer, new Set());
  if (rules.length > 0) {
    const valid = validatedBody(ctx, view, rules, op.method === 'PATCH');
    return 'status' in valid ? valid : { values: undefined, data: valid.values };
  }
  const parsed = parseBody(ctx.header('content-type'), ctx.body);
  if (!parsed.ok) return refusedBody(view, parsed);
  return {
    values: undefined,
    data: parsed.form
      ? Object.fromEntries([...(parsed.data as QueryMap)].map(([k, v]) => [k, v[v.length - 1]]))
      : parsed.data,
  };
}

/**
 * A handler's answer, held to the spec; undefined from it is `standard()`, the operation's own
 * answer; a handler that throws is Django's 500 page.
 */
export function callHandler(
  scope: HandlerScope,
  ctx: RequestContext,
  view: View,
  route: PathRoute,
  op: AnyOperation,
  handler: Handler,
  body: RequestBody,
  standard: () => CoreAnswer,
): CoreAnswer | Promise<CoreAnswer> {
  const { options } = scope;
  const finish = (result: HandlerResult): CoreAnswer => {
    if (result === undefined) return standard();
    if (!isHandlerAnswer(result))
      return handlerFailed(scope, op, new TypeError('a handler answers { status, body?, headers? } or undefined'));
    const violations = options.checkAnswer?.(op, result.status, result.body) ?? [];
    if (violations.length > 0) {
      options.onHandlerProblem?.({ operationId: op.operationId, violations });
      if (options.strictHandlers) return handlerViolation(op, violations);
    }
    return renderAnswer(view, op, result);
  };
  try {
    const result = handler(requestOf(ctx, view, route, op, body.data), handlerContext(scope, ctx, standard));
    return result instanceof Promise
      ? result.then(finish, (e: unknown) => handlerFailed(scope, op, e))
      : finish(result);
  } catch (e) {
    return handlerFailed(scope, op, e);
  }
}

/**
 * SimpleMetadata's `view.get_object()` before it shows PUT: the item found, and its object
 * permission granted (where a handler answers the item's GET with a refusal, it is not).
 */
export function canFetch(scope: HandlerScope, ctx: RequestContext, view: View, vs: ViewSet, route: PathRoute): boolean {
  if ('status' in getObject(ctx, view, vs, visible(vs, view, vs.live.set))) return false;
  const get = route.methods.get('GET');
  const handler = get === undefined ? undefined : scope.options.handlers?.[get.operationId];
  if (get === undefined || handler === undefined) return true;
  try {
    const answer = handler(
      requestOf({ ...ctx, method: 'GET', body: undefined }, view, route, get, undefined),
      handlerContext(scope, ctx, () => respond(view, 200, '')),
    );
    return answer instanceof Promise || answer === undefined || !isHandlerAnswer(answer) || answer.status < 400;
  } catch {
    return true;
  }
}

function requestOf(ctx: RequestContext, view: View, route: PathRoute, op: AnyOperation, body: unknown) {
  return handlerRequest({
    method: ctx.method,
    path: ctx.path,
    operationId: op.operationId,
    paramNames: paramNames(route.path),
    params: ctx.params,
    query: ctx.query,
    body,
    header: ctx.header,
    user: view.user,
  });
}

function handlerContext(scope: HandlerScope, ctx: RequestContext, standard: () => CoreAnswer): HandlerContext {
  const { model } = scope;
  const accessOf = (name: string): CollectionAccess => {
    const collection =
      model.collections.get(name) ?? [...model.collections.values()].find((c) => c.list.resource === name);
    if (collection === undefined) throw new TypeError(`no collection "${name}" in the spec`);
    const own = scope.viewSet(collection);
    return collectionAccess(own, urlOf({ ...ctx, params: [] }, own, undefined), scope.changed);
  };
  const detail = (status: number, text: string): HandlerAnswer => ({ status, body: { detail: text } });
  return {
    collection: accessOf,
    ok: (body, status = 200) => ({ status, body }),
    created: (item, name) => {
      const access = accessOf(name);
      const represented = access.represent(item);
      const url = represented.url;
      return typeof url === 'string'
        ? { status: 201, body: represented, headers: { location: url } }
        : { status: 201, body: represented };
    },
    noContent: () => ({ status: 204 }),
    notFound: (text = DRF_ERRORS.NOT_FOUND.detail) => detail(404, text),
    badRequest: (errors) => ({ status: 400, body: errors }),
    error: detail,
    declared: () => {
      const a = standard();
      const location = a.headers.location;
      const answer: { -readonly [K in keyof HandlerAnswer]: HandlerAnswer[K] } = { status: a.status };
      if (a.body !== '') answer.body = JSON.parse(a.body) as unknown;
      if (location !== undefined) answer.headers = { location };
      return answer;
    },
    now: () => scope.options.now?.() ?? new Date(),
  };
}

/** A handler that throws: Django's 500 page, and the error told to whoever runs the stub. */
function handlerFailed(scope: HandlerScope, op: AnyOperation, error: unknown): CoreAnswer {
  scope.options.onHandlerProblem?.({ operationId: op.operationId, error });
  return djangoPage(DJANGO_ERRORS.SERVER_ERROR);
}

function isHandlerAnswer(v: unknown): v is HandlerAnswer {
  if (typeof v !== 'object' || v === null) return false;
  const { status } = v as HandlerAnswer;
  return Number.isInteger(status) && status >= 100 && status <= 599;
}

/** `--strict-handlers`: an answer the spec refuses is the stub's 500, with why. */
function handlerViolation(op: AnyOperation, violations: readonly AnswerViolation[]): CoreAnswer {
  return stubProblem(
    STUB_PROBLEMS.HANDLER_BREAKS_SPEC,
    `${op.operationId}'s handler answered what its declaration refuses`,
    {
      violations,
    },
  );
}
