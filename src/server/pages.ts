import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { djangoPage, type StubCore } from '../core/answer.js';
import { DJANGO_ERRORS } from '../core/errors.js';
import { withMembers } from '../core/members.js';
import { resolveBaseUrl } from '../core/django/host.js';
import type { StubState } from '../load/state.js';
import { yamlPackage } from '../load/yaml-package.js';
import { controlPageHtml, escapeHtml } from './control-page.js';
import { coreRequest, outgoingHeaders } from './node-adapter.js';
import type { Send, Sent } from './send.js';
import { count } from '../openapi/words.js';

/** The stub's home: the control page (the service's own paths are all elsewhere). */
export const CONTROL_PAGE = '/__stub/';

const require = createRequire(import.meta.url);
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The only files of swagger-ui-dist served under /docs/: what the page loads, read once. */
const SWAGGER_UI_FILES: ReadonlyMap<string, { type: string; body: Buffer }> = new Map(
  (
    [
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
      ['favicon-16x16.png', 'image/png'],
    ] as const
  ).map(([name, type]) => [name, { type, body: readFileSync(path.join(SWAGGER_UI_DIR, name)) }]),
);

/**
 * Whether Fastify's router is to see this request as it came: a GET or HEAD of one of the stub's
 * own pages, by the target's literal path (`/docs`, `/docs/…`, `/openapi.json`, `/openapi.yaml`,
 * `/`, a query allowed). Every other request is the service's, whatever the router would make of
 * its target (it decodes `%`-escapes, cuts at `#`, takes `http://host/docs` for `/docs`): the
 * core routes it from the target as sent, as Django does. A path under `/docs/` that the router
 * could not decode (find-my-way decodes with `decodeURI`) is the service's too.
 */
export function isStubPage(method: string | undefined, url: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  // On every request: a look at the second character first, no string made.
  if (url === undefined || url === '/') return true;
  const c = url.charCodeAt(1);
  if (c === 0x3f) return true; // '/?…'
  if (c === 0x5f) return url === CONTROL_PAGE || url.startsWith(`${CONTROL_PAGE}?`); // '/_…'
  if (c !== 0x64 && c !== 0x6f) return false; // not '/d…' nor '/o…'
  const q = url.indexOf('?');
  const p = q === -1 ? url : url.slice(0, q);
  if (p === '/docs' || p === '/openapi.json' || p === '/openapi.yaml') return true;
  if (!p.startsWith('/docs/')) return false;
  if (!p.includes('%')) return true;
  try {
    decodeURI(p);
    return true;
  } catch {
    return false;
  }
}

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Workplace Administration Service: API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 1,
      tryItOutEnabled: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
    });
  </script>
</body>
</html>
`;

/** A marker for the stub's own address, replaced per request in text prepared once per state. */
const BASE_MARK = 'urn:workplace-admin-stub:base-url';

interface Prepared {
  /** The spec with this stub first among its servers, as JSON and YAML, split around the base URL. */
  readonly json: readonly string[];
  readonly yaml: readonly string[];
  /** The spec's bytes as last served, by format and base url (a handful: the hosts allowed). */
  readonly bytes: Map<string, Buffer>;
}

const prepared = new WeakMap<StubState, Prepared>();

/** Everything served from the spec, prepared once per state (a reload prepares the next). */
function preparedOf(state: StubState): Prepared {
  let p = prepared.get(state);
  if (!p) {
    const doc = state.spec.doc;
    const servers = Array.isArray(doc.servers) ? doc.servers : [];
    const served = {
      ...doc,
      servers: [{ url: BASE_MARK, description: 'This stub (the address you called)' }, ...servers],
    };
    p = {
      json: JSON.stringify(served).split(BASE_MARK),
      yaml: yamlPackage().stringify(served, { aliasDuplicateObjects: false }).split(BASE_MARK),
      bytes: new Map(),
    };
    prepared.set(state, p);
  }
  return p;
}

/**
 * The spec as served to a base url, as bytes made once (the document is 140 KB: encoding it for
 * every request held a flood of them ahead of every other answer). At most 16 kept.
 */
function specBytes(p: Prepared, format: 'json' | 'yaml', base: string): Buffer {
  const key = `${format} ${base}`;
  let bytes = p.bytes.get(key);
  if (bytes === undefined) {
    if (p.bytes.size >= 16) p.bytes.clear();
    bytes = Buffer.from(p[format].join(JSON.stringify(base).slice(1, -1)));
    p.bytes.set(key, bytes);
  }
  return bytes;
}

/** The spec's `info.title`, for a page's heading. */
function titleOf(doc: object): string {
  const info = (doc as { info?: { title?: unknown } }).info;
  return typeof info?.title === 'string' ? info.title : 'API';
}

/** A page's answer: its type and bytes, and any other header (Content-Length is added). */
function page(type: string, body: string | Buffer, extra: Record<string, string> = {}): Sent {
  const headers = withMembers({ 'content-type': type }, extra);
  return { status: 200, headers: outgoingHeaders({ headers }, body), body };
}

/**
 * The stub's own pages, as Fastify routes (HEAD too: Fastify's `exposeHeadRoutes`): `/` for a
 * browser (an index; anything else at `/` is the service's, which has nothing there),
 * `/openapi.json` and `/openapi.yaml` (the spec as served now), `/docs` (Swagger UI from the npm
 * package, no CDN, its requests going to this stub). Each page answers a request, or leaves it to
 * the service (undefined): another file under `/docs/`, `/` to a client that is not a browser.
 */
export function registerPages(
  app: FastifyInstance,
  opts: {
    readonly state: () => StubState;
    readonly coreOf: (state: StubState) => StubCore;
    readonly send: Send;
    readonly service: RouteHandlerMethod;
  },
): void {
  const { state, coreOf, send, service } = opts;
  const route = (url: string, answer: (req: FastifyRequest) => Sent | undefined) =>
    app.get(url, function (req, reply) {
      const started = performance.now();
      const sent = answer(req);
      if (sent === undefined) return service.call(this, req, reply);
      send(req, reply, sent, started);
    });
  // Django's host check comes first on these pages too: its 400 page, or the request's base URL.
  const baseOf = (req: FastifyRequest): string | Sent => {
    const r = resolveBaseUrl(coreRequest(req.raw, req.url).header, coreOf(state()).options);
    if (r.ok) return r.baseUrl;
    const a = djangoPage(DJANGO_ERRORS.BAD_REQUEST);
    return { status: a.status, headers: outgoingHeaders(a, a.body), body: a.body };
  };
  const spec = (type: string, format: 'json' | 'yaml') => (req: FastifyRequest) => {
    const base = baseOf(req);
    if (typeof base !== 'string') return base;
    return page(type, specBytes(preparedOf(state()), format, base));
  };

  route('/docs', (req) => {
    const base = baseOf(req);
    return typeof base === 'string' ? page('text/html; charset=utf-8', DOCS_HTML) : base;
  });
  route('/docs/*', (req) => {
    const file = SWAGGER_UI_FILES.get((req.params as { '*': string })['*']);
    return file && page(file.type, file.body, { 'cache-control': 'public, max-age=3600' });
  });
  route('/openapi.json', spec('application/json; charset=utf-8', 'json'));
  route('/openapi.yaml', spec('application/yaml; charset=utf-8', 'yaml'));
  route(CONTROL_PAGE, (req) => {
    const base = baseOf(req);
    if (typeof base !== 'string') return base;
    return page('text/html; charset=utf-8', controlPageHtml(titleOf(state().spec.doc)), {
      'cache-control': 'no-store',
    });
  });
  route('/', (req) => {
    // The spec's own `/` (the deployment's redirect to its API root) is the service's.
    if (state().model.router.match('/') !== undefined) return undefined;
    const base = baseOf(req);
    if (typeof base !== 'string' || !/text\/html/.test(req.headers.accept ?? '')) return undefined;
    const rows = [...state().model.collections.values()]
      .map(
        (c) =>
          `<li><a href="${escapeHtml(`${base}${c.list.path}?format=api`)}">${escapeHtml(c.list.path)}</a> ${escapeHtml(c.list.summary)} <small>(${count(c.count, 'item')}, ${escapeHtml(c.source)})</small></li>`,
      )
      .join('\n');
    return page(
      'text/html; charset=utf-8',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Workplace Administration Service stub</title></head><body><h1>Workplace Administration Service stub</h1><p><a href="/__stub/">Stub control</a> · <a href="/docs">API reference</a> · <a href="/openapi.json">openapi.json</a> · <a href="/openapi.yaml">openapi.yaml</a></p><ul>${rows}</ul></body></html>`,
    );
  });
}
