import type { Handlers } from '../core/stub/handler-types.js';

/*
 * What the deployment's own viewsets do that the bundled spec cannot say: each is a method the
 * deployment overrides (no licence: the behaviour, observed, not its code). They answer with the
 * bundled spec and its snapshot, unless `--handlers` names a module of the designer's.
 */

const DENIED = 'You do not have permission to perform this action.';
const pkOf = (params: Readonly<Record<string, string>>) => params.pk ?? '';
// What Python's int() takes for an AutoField lookup (the rest is "Not found.": a ValueError).
const INT_LIKE = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

export const deploymentHandlers: Handlers = {
  // PerformanceReviewViewSet.retrieve answers a client who may not see the review (an anonymous
  // one sees none) a bare 403, whatever the pk: no body, no Content-Type.
  getReview: (req) => (req.user ? undefined : { status: 403 }),

  // MealStopViewSet's object permission is never granted: any stop a client can see (a logged-in
  // one sees them all) is 403 to every detail action.
  getMealStop: (req, ctx) =>
    req.user && ctx.collection('mealstop').get(pkOf(req.params)) ? ctx.error(403, DENIED) : undefined,
  updateMealStop: (req, ctx) =>
    req.user && ctx.collection('mealstop').get(pkOf(req.params)) ? ctx.error(403, DENIED) : undefined,
  partialUpdateMealStop: (req, ctx) =>
    req.user && ctx.collection('mealstop').get(pkOf(req.params)) ? ctx.error(403, DENIED) : undefined,
  destroyMealStop: (req, ctx) =>
    req.user && ctx.collection('mealstop').get(pkOf(req.params)) ? ctx.error(403, DENIED) : undefined,

  // TeleworkApplicationViewSet lists nothing to an anonymous client, but its retrieve looks in
  // every application.
  getTeleworkApplication: (req, ctx) => {
    if (req.user) return undefined;
    if (!INT_LIKE.test(pkOf(req.params))) return ctx.notFound('Not found.');
    const applications = ctx.collection('teleworkapplication');
    const found = applications.get(pkOf(req.params));
    return found
      ? ctx.ok(applications.represent(found))
      : ctx.notFound('No TeleworkApplication matches the given query.');
  },
};
