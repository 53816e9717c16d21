import type { PathRoute } from '../../openapi/operations.js';
import { detailBody, methodNotAllowedDetail } from '../errors.js';
import { lastValue } from '../python/query.js';
import { quotePlus } from '../python/quote.js';
import type { CoreAnswer, RequestContext } from '../request.js';
import { drfJson } from '../store.js';
import { viewMetadata } from './metadata.js';
import { respond, type View } from './views.js';

/**
 * DRF's DefaultRouter(trailing_slash=False) over the spec's paths, as Django resolves them against
 * the decoded path (rest_framework/routers.py, urlpatterns.py): each collection `^desk$` and its
 * item path `^desk/(?P<pk>[^/.]+)$`, each also with a format suffix (`desk.json`, `desk/3.json`,
 * a trailing slash allowed after it), and an API root per folder of collections (`/api/v1/`).
 */
export type Match =
  | {
      readonly kind: 'route';
      readonly route: PathRoute;
      readonly params: readonly string[];
      readonly suffix: string | undefined;
    }
  | { readonly kind: 'root'; readonly root: ApiRoot; readonly suffix: string | undefined };

export interface ApiRoot {
  /** `/api/v1/` */
  readonly prefix: string;
  /** Each collection of that folder: its router prefix (`desk`) and path. */
  readonly entries: readonly { readonly key: string; readonly path: string }[];
}

const SUFFIX = /\.([a-z0-9]+)\/?$/;
const PK = /^[^/.]+$/;

/**
 * Every path the spec routes is a collection or a collection plus one `{param}` segment
 * (readOperations), so the patterns are indexed by their literal part: a request costs a few map
 * lookups whatever the number of collections, as Django's resolver (which tries each in turn)
 * answers.
 */
export class Router {
  readonly #lists = new Map<string, PathRoute>();
  readonly #details = new Map<string, PathRoute>();
  readonly #roots = new Map<string, ApiRoot>();
  readonly roots: readonly ApiRoot[];

  constructor(routes: readonly PathRoute[]) {
    const roots = new Map<string, { prefix: string; entries: { key: string; path: string }[] }>();
    for (const route of routes) {
      if (route.kind === 'detail') {
        this.#details.set(route.collectionPath, route);
        continue;
      }
      this.#lists.set(route.path, route);
      const prefix = route.path.slice(0, route.path.lastIndexOf('/') + 1);
      const root = roots.get(prefix) ?? { prefix, entries: [] };
      root.entries.push({ key: route.path.slice(prefix.length), path: route.path });
      roots.set(prefix, root);
    }
    this.roots = [...roots.values()];
    for (const root of this.roots) this.#roots.set(root.prefix, root);
  }

  /** The route whose pattern matches the decoded path, as Django's resolver finds it. */
  match(path: string): Match | undefined {
    const plain = this.#plain(path);
    if (plain) return { ...plain, suffix: undefined };
    const m = SUFFIX.exec(path);
    if (!m) return undefined;
    const found = this.#plain(path.slice(0, m.index));
    return found ? { ...found, suffix: m[1] } : undefined;
  }

  #plain(
    path: string,
  ): { kind: 'route'; route: PathRoute; params: string[] } | { kind: 'root'; root: ApiRoot } | undefined {
    const list = this.#lists.get(path);
    if (list) return { kind: 'route', route: list, params: [] };
    const slash = path.lastIndexOf('/');
    const detail = slash > 0 ? this.#details.get(path.slice(0, slash)) : undefined;
    const segment = path.slice(slash + 1);
    if (detail && PK.test(segment)) return { kind: 'route', route: detail, params: [segment] };
    const root = this.#roots.get(path);
    return root ? { kind: 'root', root } : undefined;
  }
}

/** DefaultRouter's APIRootView: `{"desk": "<base>/api/v1/desk", ...}`, GET only. */
export function apiRoot(ctx: RequestContext, view: View, root: ApiRoot, formats: readonly string[]): CoreAnswer {
  if (ctx.method === 'OPTIONS')
    return respond(
      view,
      200,
      drfJson(viewMetadata('Api Root', 'The default basic root view for DefaultRouter', formats)),
    );
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
    return respond(view, 405, detailBody(methodNotAllowedDetail(ctx.method)));
  const format = lastValue(ctx.query, 'format');
  const query = format === undefined ? '' : `?format=${quotePlus(format)}`;
  const suffix = ctx.suffix === undefined ? '' : `.${ctx.suffix}`;
  const body: Record<string, string> = {};
  for (const e of root.entries) body[e.key] = `${ctx.baseUrl}${e.path}${suffix}${query}`;
  return { ...respond(view, 200, drfJson(body)), cacheable: true };
}
