import type { Handler, HandlerContext, HandlerRequest, Handlers } from '../core/stub/handler-types.js';

/*
 * What the deployment's own viewsets do that the bundled spec cannot say: each is a method the
 * deployment overrides (no licence: the behaviour, observed, not its code). They answer with the
 * bundled spec and its snapshot, unless `--handlers` names a module of the designer's.
 */

const DENIED = 'You do not have permission to perform this action.';
/** The item a detail path's `{pk}` names, as the view's get_object finds it (undefined: none). */
const found = (req: HandlerRequest, ctx: HandlerContext, collection: string) => {
  const items = ctx.collection(collection);
  const pk = items.lookup(req.params.pk ?? '');
  return pk === undefined ? undefined : items.get(pk);
};

/** MealStopPermission: has_object_permission grants nothing, so every stop found is refused. */
const stopDenied: Handler = (req, ctx) =>
  req.user && found(req, ctx, 'mealstop') ? ctx.error(403, DENIED) : undefined;

export const deploymentHandlers: Handlers = {
  // PerformanceReviewViewSet.retrieve answers a client who may not see the review (an anonymous
  // one sees none) a bare 403, whatever the pk: no body, no Content-Type.
  getReview: (req) => (req.user ? undefined : { status: 403 }),

  // MealStopViewSet's object permission is never granted: any stop a client can see (a logged-in
  // one sees them all) is 403 to every detail action.
  getMealStop: stopDenied,
  updateMealStop: stopDenied,
  partialUpdateMealStop: stopDenied,
  destroyMealStop: stopDenied,

  // TeleworkApplicationViewSet lists nothing to an anonymous client, but its retrieve looks in
  // every application.
  getTeleworkApplication: (req, ctx) => {
    if (req.user) return undefined;
    const applications = ctx.collection('teleworkapplication');
    const pk = applications.lookup(req.params.pk ?? '');
    if (pk === undefined) return ctx.notFound('Not found.');
    const application = applications.get(pk);
    return application
      ? ctx.ok(applications.represent(application))
      : ctx.notFound('No TeleworkApplication matches the given query.');
  },
};
