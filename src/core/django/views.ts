import type { PathRoute, ViewMethod } from '../../openapi/operations.js';
import type { CoreAnswer, RequestContext } from '../request.js';
import { DJANGO_HEADERS, HTML_TYPE } from './http.js';
import { withMembers } from '../members.js';

/**
 * A plain Django view (`x-django-view`: a RedirectView): its declared answer as Django sends an
 * HttpResponse (text/html, its declared headers), without DRF's negotiation, authentication,
 * Allow or Vary; a method it does not declare is HttpResponseNotAllowed (django/views/generic/base.py).
 */
export function djangoView(ctx: RequestContext, route: PathRoute): CoreAnswer {
  const op = route.methods.get((ctx.method === 'HEAD' ? 'GET' : ctx.method) as ViewMethod);
  if (op === undefined) {
    const allow = [...route.methods.keys(), ...(route.methods.has('GET') ? ['HEAD'] : [])].join(', ');
    return { status: 405, headers: withMembers(DJANGO_HEADERS, { 'content-type': HTML_TYPE, allow }), body: '' };
  }
  const success = op.kind === 'custom' ? op.success : undefined;
  const body = Object.values(success?.examples ?? {})[0];
  return {
    status: success === undefined ? 200 : Number(success.status),
    headers: withMembers(withMembers(DJANGO_HEADERS, { 'content-type': HTML_TYPE }), success?.headers ?? {}),
    body: typeof body === 'string' ? body : '',
  };
}
