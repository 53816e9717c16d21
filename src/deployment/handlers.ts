import type { Handlers } from '../core/stub/handler-types.js';

/*
 * What the deployment's own viewsets do that the bundled spec cannot say: each is a method the
 * deployment overrides (no licence: the behaviour, observed, not its code). They answer with the
 * bundled spec and its snapshot, unless `--handlers` names a module of the designer's.
 */

const DENIED = 'You do not have permission to perform this action.';
/**
 * The pk of a lookup as the AutoField reads it: Python's int() of the text (`07` and `+7` are 7;
 * ASCII digits here), or undefined where int() refuses it (the view's "Not found.": a ValueError).
 */
const pkOf = (params: Readonly<Record<string, string>>): string | undefined => {
  const m = /^[ \t\n\v\f\r]*([+-]?)(\d+(?:_\d+)*)[ \t\n\v\f\r]*$/.exec(params.pk ?? '');
  return m ? BigInt(`${m[1]}${(m[2] as string).replaceAll('_', '')}`).toString() : undefined;
};
const found = (ctx: Parameters<NonNullable<Handlers[string]>>[1], collection: string, pk: string | undefined) =>
  pk === undefined ? undefined : ctx.collection(collection).get(pk);

export const deploymentHandlers: Handlers = {
  // PerformanceReviewViewSet.retrieve answers a client who may not see the review (an anonymous
  // one sees none) a bare 403, whatever the pk: no body, no Content-Type.
  getReview: (req) => (req.user ? undefined : { status: 403 }),

  // MealStopViewSet's object permission is never granted: any stop a client can see (a logged-in
  // one sees them all) is 403 to every detail action.
  getMealStop: (req, ctx) =>
    req.user && found(ctx, 'mealstop', pkOf(req.params)) ? ctx.error(403, DENIED) : undefined,
  updateMealStop: (req, ctx) =>
    req.user && found(ctx, 'mealstop', pkOf(req.params)) ? ctx.error(403, DENIED) : undefined,
  partialUpdateMealStop: (req, ctx) =>
    req.user && found(ctx, 'mealstop', pkOf(req.params)) ? ctx.error(403, DENIED) : undefined,
  destroyMealStop: (req, ctx) =>
    req.user && found(ctx, 'mealstop', pkOf(req.params)) ? ctx.error(403, DENIED) : undefined,

  // TeleworkApplicationViewSet lists nothing to an anonymous client, but its retrieve looks in
  // every application.
  getTeleworkApplication: (req, ctx) => {
    if (req.user) return undefined;
    const pk = pkOf(req.params);
    if (pk === undefined) return ctx.notFound('Not found.');
    const application = found(ctx, 'teleworkapplication', pk);
    return application
      ? ctx.ok(ctx.collection('teleworkapplication').represent(application))
      : ctx.notFound('No TeleworkApplication matches the given query.');
  },
};
