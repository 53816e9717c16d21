import { describe, expect, it } from 'vitest';
import { djangoView } from '../../../../src/core/django/views.js';
import { parseQuery } from '../../../../src/core/python/query.js';
import type { RequestContext } from '../../../../src/core/request.js';
import { stateFor, testConfig } from '../../../helpers.js';

// The bundled spec's `/` is the deployment's RedirectView (x-django-view).
const { model } = await stateFor(testConfig());

function at(method: string, path = '/') {
  const match = model.router.match(path);
  if (match?.kind !== 'route') throw new Error(`no route for ${path}`);
  const ctx: RequestContext = {
    method,
    baseUrl: 'http://stub.test',
    path,
    query: parseQuery(''),
    rawQuery: '',
    suffix: undefined,
    params: [],
    header: () => undefined,
    body: undefined,
  };
  return djangoView(ctx, match.route);
}

describe('djangoView: a RedirectView as Django answers it, without DRF', () => {
  it.each(['GET', 'HEAD'])('%s: the declared redirect, text/html, no Allow or Vary', (method) => {
    const a = at(method);
    expect(a.status).toBe(302);
    expect(a.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(a.headers.location).toBe('/api/');
    expect(a.headers.allow).toBeUndefined();
    expect(a.headers.vary).toBeUndefined();
    expect(a.body).toBe('');
  });

  it.each(['POST', 'DELETE', 'OPTIONS'])('%s: HttpResponseNotAllowed with what the view declares', (method) => {
    const a = at(method);
    expect(a.status).toBe(405);
    expect(a.headers.allow).toBe('GET, HEAD');
    expect(a.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});
