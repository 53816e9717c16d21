import type { PathRoute, Renderer } from '../../openapi/operations.js';
import { PK_SEGMENT } from '../django/urls.js';
import { detailBody, methodNotAllowedDetail } from '../errors.js';
import { lastValue } from '../python/query.js';
import { quotePlus } from '../python/quote.js';
import type { CoreAnswer, RequestContext } from '../request.js';
import { withMembers } from '../members.js';
import { drfJson } from '../prepared-items.js';
import { viewMetadata } from './metadata.js';
import { respond, type View } from './views.js';

/**
 * DRF's DefaultRouter(trailing_slash=False) and Django's URL patterns over the spec's paths, as
 * Django resolves them against the decoded path (rest_framework/routers.py, urlpatterns.py,
 * django/urls/resolvers.py): the API root first; then, for each viewset in the spec's order, its
 * list route `^desk$`, its list actions `^desk/simple_list$`, its detail route
 * `^desk/(?P<pk>[^/.]+)$` and its detail actions `^desk/(?P<pk>[^/.]+)/cancel$`, each followed
 * by its format-suffix variant (`desk.json`, `desk/3.json`, a trailing slash allowed after it);
 * then every other view, without suffixes. The first pattern that matches wins.
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
  /** Where the router is mounted: `/api/` (a declared root), or a folder of collections `/api/v1/`. */
  readonly prefix: string;
  /** Each collection the router registers: its prefix under the mount (`v1/desk`) and its path. */
  readonly entries: readonly { readonly key: string; readonly path: string }[];
  /** The declared root operation, if the spec declares one. */
  readonly operationId: string | undefined;
}

const SUFFIX = /\.([a-z0-9]+)\/?$/;

interface Found {
  readonly order: number;
  readonly match: Match;
}

/**
 * Patterns are indexed by their literal parts, so that a request costs a few map lookups whatever
 * the number of collections; where several match, the one Django would try first wins.
 */
export class Router {
  /** Lists and list actions, by path. */
  readonly #exact = new Map<string, { route: PathRoute; order: number }>();
  /** Detail routes, by collection path. */
  readonly #details = new Map<string, { route: PathRoute; order: number }>();
  /** Detail actions, by collection path, then url_path. */
  readonly #detailActions = new Map<string, Map<string, { route: PathRoute; order: number }>>();
  readonly #views: { route: PathRoute; order: number; pattern: RegExp }[] = [];
  readonly #roots = new Map<string, ApiRoot>();
  readonly roots: readonly ApiRoot[];

  constructor(routes: readonly PathRoute[], declaredRoot?: { path: string; operationId: string }) {
    routes.forEach((route, order) => {
      const entry = { route, order };
      if (route.kind === 'list' || route.kind === 'list-action') this.#exact.set(route.path, entry);
      else if (route.kind === 'detail') this.#details.set(route.collectionPath, entry);
      else if (route.kind === 'detail-action') {
        const byPath = this.#detailActions.get(route.collectionPath) ?? new Map();
        byPath.set(route.urlPath, entry);
        this.#detailActions.set(route.collectionPath, byPath);
      } else this.#views.push({ ...entry, pattern: viewPattern(route.path) });
    });
    const lists = routes.filter((r) => r.kind === 'list');
    if (declaredRoot) {
      const prefix = declaredRoot.path;
      const entries = lists
        .filter((r) => r.path.startsWith(prefix))
        .map((r) => ({ key: r.path.slice(prefix.length), path: r.path }));
      this.roots = [{ prefix, entries, operationId: declaredRoot.operationId }];
    } else {
      // Without a declared root, a router per folder of collections, each with its root.
      const byFolder = new Map<string, { key: string; path: string }[]>();
      for (const r of lists) {
        const prefix = r.path.slice(0, r.path.lastIndexOf('/') + 1);
        byFolder.set(prefix, [...(byFolder.get(prefix) ?? []), { key: r.path.slice(prefix.length), path: r.path }]);
      }
      this.roots = [...byFolder].map(([prefix, entries]) => ({ prefix, entries, operationId: undefined }));
    }
    for (const root of this.roots) this.#roots.set(root.prefix, root);
  }

  /** The route whose pattern matches the decoded path, as Django's resolver finds it. */
  match(path: string): Match | undefined {
    let best = this.#plain(path);
    const m = SUFFIX.exec(path);
    if (m) {
      // A suffixed pattern follows its own plain one: it wins over every later route.
      const suffixed = this.#plain(path.slice(0, m.index), true);
      if (suffixed && (best === undefined || suffixed.order + 0.5 < best.order))
        best = { order: suffixed.order + 0.5, match: { ...suffixed.match, suffix: m[1] } };
    }
    return best?.match;
  }

  /** The first route matching the path, by Django's order; `suffixed`: only those with a suffix variant. */
  #plain(path: string, suffixed = false): Found | undefined {
    let best: Found | undefined;
    const consider = (order: number, match: Match) => {
      if (best === undefined || order < best.order) best = { order, match };
    };
    const root = this.#roots.get(path);
    if (root) return { order: -1, match: { kind: 'root', root, suffix: undefined } };
    const exact = this.#exact.get(path);
    if (exact) consider(exact.order, { kind: 'route', route: exact.route, params: [], suffix: undefined });
    const slash = path.lastIndexOf('/');
    const detail = slash > 0 ? this.#details.get(path.slice(0, slash)) : undefined;
    const segment = path.slice(slash + 1);
    if (detail && PK_SEGMENT.test(segment))
      consider(detail.order, { kind: 'route', route: detail.route, params: [segment], suffix: undefined });
    if (this.#detailActions.size > 0) {
      // `<collection>/<pk>/<url_path>`: each place a collection could end.
      for (let i = path.indexOf('/', 1); i !== -1; i = path.indexOf('/', i + 1)) {
        const actions = this.#detailActions.get(path.slice(0, i));
        if (!actions) continue;
        const end = path.indexOf('/', i + 1);
        if (end === -1) break;
        const pk = path.slice(i + 1, end);
        const action = actions.get(path.slice(end + 1));
        if (action && PK_SEGMENT.test(pk))
          consider(action.order, { kind: 'route', route: action.route, params: [pk], suffix: undefined });
      }
    }
    if (!suffixed)
      for (const view of this.#views) {
        if (best !== undefined && view.order > best.order) break;
        const m = view.pattern.exec(path);
        if (m) consider(view.order, { kind: 'route', route: view.route, params: m.slice(1), suffix: undefined });
      }
    return best;
  }
}

/** Django's `path()` converters: a `{param}` is `<str:param>`, one segment of anything but `/`. */
function viewPattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** DefaultRouter's APIRootView: `{"desk": "<base>/api/v1/desk", ...}`, GET only. */
export function apiRoot(ctx: RequestContext, view: View, root: ApiRoot, renderers: readonly Renderer[]): CoreAnswer {
  if (ctx.method === 'OPTIONS')
    return respond(
      view,
      200,
      drfJson(viewMetadata('Api Root', 'The default basic root view for DefaultRouter', renderers)),
    );
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
    return respond(view, 405, detailBody(methodNotAllowedDetail(ctx.method)));
  const format = lastValue(ctx.query, 'format');
  const query = format === undefined ? '' : `?format=${quotePlus(format)}`;
  const suffix = ctx.suffix === undefined ? '' : `.${ctx.suffix}`;
  const body: Record<string, string> = {};
  for (const e of root.entries) body[e.key] = `${ctx.baseUrl}${e.path}${suffix}${query}`;
  const answer = respond(view, 200, drfJson(body));
  // Kept only where nothing but `format` was asked: any other parameter would make a target, and
  // an entry, of its own for the same bytes.
  for (const key of ctx.query.keys()) if (key !== 'format') return answer;
  return withMembers(answer, { cacheable: true });
}
