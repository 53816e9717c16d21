import { DJANGO_HEADERS } from '../django/http.js';
import { respond, respondEmpty, respondError, type View } from '../drf/views.js';
import { DJANGO_ERRORS, djangoPage, DRF_ERRORS, gatewayPage } from '../errors.js';
import type { Model } from '../model.js';
import type { CoreAnswer } from '../request.js';
import { drfJson } from '../prepared-items.js';
import { isJsonMedia } from '../../openapi/declared-responses.js';
import type { AnyOperation, CustomOperation } from '../../openapi/operations.js';
import type { OperationSource } from './control.js';
import type { HandlerAnswer, Handlers } from './handler-types.js';
import { impossible, type Scenario } from './scenarios.js';
import { withHeaders, withMembers } from '../members.js';

/*
 * Answers the spec declares: a response chosen with `Prefer: code=N`, the success of an action or
 * a view (docs/response-selection.md), and a handler's answer rendered as DRF renders a Response.
 */

/**
 * `code=N`: the declared response's example (`example=NAME`, else its first), else its body
 * generated from its schema with the seed, else none. 401, 403, 500, 502, 503 and 504 need no
 * declaration: the deployment answers them anywhere (DRF's 401 and 403, Django's 500 page, a
 * gateway's page).
 */
export function declaredAnswer(view: View, op: AnyOperation, scenario: Scenario, model: Model): CoreAnswer {
  const status = scenario.code as number;
  const declared = op.responses[String(status)];
  if (!declared) {
    // What the deployment answers on any endpoint, declared or not: TokenAuthentication's 401
    // (403 where the first authentication class sends no challenge), a permission's 403, a crash.
    if (status === 401)
      return respondError(
        view,
        model.authenticators.some((a) => a.kind === 'token') ? DRF_ERRORS.INVALID_TOKEN : DRF_ERRORS.NOT_AUTHENTICATED,
      );
    if (status === 403) return respondError(view, DRF_ERRORS.PERMISSION_DENIED);
    if (status === 500) return djangoPage(DJANGO_ERRORS.SERVER_ERROR);
    if (status === 502 || status === 503 || status === 504) return gatewayPage(status);
    return impossible(`${op.operationId} declares no ${status} response`, {
      // Each once: a declared 401 (the token's) is not offered twice.
      codes: [...new Set([...Object.keys(op.responses), '401', '403', '500', '502', '503', '504'])],
    });
  }
  const names = Object.keys(declared.examples);
  // With the headers the response declares a value for (a 401's WWW-Authenticate).
  const withDeclared = (a: CoreAnswer): CoreAnswer =>
    Object.keys(declared.headers).length === 0 ? a : withHeaders(a, declared.headers);
  if (scenario.example !== undefined) {
    if (!names.includes(scenario.example))
      return impossible(`the ${status} response of ${op.operationId} has no example "${scenario.example}"`, {
        examples: names,
      });
    return withDeclared(respond(view, status, drfJson(declared.examples[scenario.example])));
  }
  if (names.length > 0) return withDeclared(respond(view, status, drfJson(declared.examples[names[0] as string])));
  const generated = model.generatedBodies[`${op.pointer} ${status}`];
  return withDeclared(respond(view, status, generated === undefined ? '' : drfJson(generated)));
}

/** Where an action's or a view's success comes from, without a handler: the first that gives one. */
export type SuccessSource = 'fixture' | 'example' | 'generated' | 'none';

export function successSource(op: CustomOperation, model: Model): SuccessSource {
  if (Object.hasOwn(model.fixtureBodies, op.pointer)) return 'fixture';
  const success = op.success;
  if (success === undefined) return 'none';
  if (Object.keys(success.examples).length > 0) return 'example';
  return Object.hasOwn(model.generatedBodies, `${op.pointer} ${success.status}`) ? 'generated' : 'none';
}

/** Every operation of the spec, and where its answers come from (the start-up table, the page, `GET /__stub/operations`). */
export function operationSources(model: Model, handlers: Handlers | undefined): OperationSource[] {
  const out: OperationSource[] = [];
  for (const route of model.operations.routes)
    for (const [method, op] of route.methods) {
      const own = op.kind !== 'custom' ? 'collection' : op.djangoView ? 'declared' : successSource(op, model);
      const handled = handlers?.[op.operationId] !== undefined;
      out.push({
        operationId: op.operationId,
        method,
        path: route.path,
        kind: op.kind,
        source: handled ? 'handler' : own,
        ...(handled ? { otherwise: own } : {}),
        ...(own === 'fixture' && op.kind === 'custom' && op.fixtureName !== undefined
          ? { fixture: op.fixtureName }
          : {}),
        responses: Object.keys(op.responses),
      });
    }
  return out;
}

/**
 * An action's or a view's declared success: its status and media type, with the body of the
 * fixture it names, else its example, else one generated from its schema with the seed.
 */
export function successAnswer(op: CustomOperation, model: Model): HandlerAnswer {
  const success = op.success;
  const status = success === undefined ? 200 : Number(success.status);
  const headers = success?.headers ?? {};
  switch (successSource(op, model)) {
    case 'fixture':
      return { status, body: model.fixtureBodies[op.pointer], headers };
    case 'example':
      return { status, body: Object.values(success?.examples ?? {})[0], headers };
    case 'generated':
      return { status, body: model.generatedBodies[`${op.pointer} ${success?.status}`], headers };
    default:
      return { status, headers };
  }
}

/**
 * A Response as DRF renders it: JSON (indented as negotiated) with the view's headers, none for a
 * body that is undefined; a declared media type other than JSON gets a string body as it is.
 */
export function renderAnswer(view: View, op: AnyOperation, answer: HandlerAnswer): CoreAnswer {
  const extra = answer.headers ?? {};
  if (answer.body === undefined) {
    const empty = respondEmpty(view, answer.status);
    return withHeaders(empty, extra);
  }
  const media = op.responses[String(answer.status)]?.mediaType;
  if (media !== undefined && !isJsonMedia(media) && typeof answer.body === 'string') {
    const own = { 'content-type': media, vary: 'Accept, Cookie', allow: view.allow };
    const headers = withMembers(withMembers(DJANGO_HEADERS, own), extra);
    return { status: answer.status, headers, body: answer.body };
  }
  const rendered = respond(view, answer.status, drfJson(answer.body));
  return withHeaders(rendered, extra);
}
