import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { djangoPage, type StubCore } from '../core/answer.js';
import { DJANGO_ERRORS } from '../core/errors.js';
import { resolveBaseUrl } from '../core/django/host.js';
import type { StubState } from '../load/state.js';
import { yamlPackage } from '../load/yaml-package.js';
import type { StateHolder } from './app.js';

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

/** The stub's own pages, beside the service's paths. */
export function isMetaPath(url: string | undefined): boolean {
  // On every request: a look at the second character first, no string made.
  if (url === undefined || url === '/') return true;
  const c = url.charCodeAt(1);
  if (c === 0x3f) return true; // '/?…'
  if (c !== 0x64 && c !== 0x6f) return false; // not '/d…' nor '/o…'
  const q = url.indexOf('?');
  const p = q === -1 ? url : url.slice(0, q);
  return p === '/docs' || p === '/openapi.json' || p === '/openapi.yaml' || p.startsWith('/docs/');
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
    };
    prepared.set(state, p);
  }
  return p;
}

/** The spec as the stub serves it: the bundled document, with this stub first among the servers. */
export function servedSpec(state: StubState, baseUrl: string): Record<string, unknown> {
  return JSON.parse(preparedOf(state).json.join(JSON.stringify(baseUrl).slice(1, -1))) as Record<string, unknown>;
}

/**
 * The stub's own pages: `/` for a browser (an index; anything else at `/` is the service's, which
 * has nothing there), `/openapi.json` and `/openapi.yaml` (the spec as served now), `/docs`
 * (Swagger UI from the npm package, no CDN, its requests going to this stub).
 */
export async function registerMetaRoutes(
  app: FastifyInstance,
  holder: StateHolder,
  coreOf: (state: StubState) => StubCore,
  serveService: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<void> {
  // Django's host check comes first on these pages too.
  const baseOf = (req: FastifyRequest): string | undefined => {
    const r = resolveBaseUrl((n) => {
      const v = req.headers[n];
      return Array.isArray(v) ? v.join(', ') : v;
    }, coreOf(holder.current).options);
    return r.ok ? r.baseUrl : undefined;
  };
  const badHost = (reply: FastifyReply) => {
    const a = djangoPage(DJANGO_ERRORS.BAD_REQUEST);
    return reply.code(a.status).headers(a.headers).send(a.body);
  };

  app.get('/docs', (req, reply) =>
    baseOf(req) === undefined ? badHost(reply) : reply.type('text/html; charset=utf-8').send(DOCS_HTML),
  );
  app.get('/docs/*', (req, reply) => {
    const file = SWAGGER_UI_FILES.get((req.params as { '*': string })['*']);
    if (!file) {
      reply.hijack();
      serveService(req.raw, reply.raw);
      return;
    }
    return reply.type(file.type).header('cache-control', 'public, max-age=3600').send(file.body);
  });
  app.get('/openapi.json', (req, reply) => {
    const base = baseOf(req);
    if (base === undefined) return badHost(reply);
    return reply
      .type('application/json; charset=utf-8')
      .send(preparedOf(holder.current).json.join(JSON.stringify(base).slice(1, -1)));
  });
  app.get('/openapi.yaml', (req, reply) => {
    const base = baseOf(req);
    if (base === undefined) return badHost(reply);
    return reply
      .type('application/yaml; charset=utf-8')
      .send(preparedOf(holder.current).yaml.join(JSON.stringify(base).slice(1, -1)));
  });
  app.get('/', (req, reply) => {
    const base = baseOf(req);
    if (base === undefined || !/text\/html/.test(req.headers.accept ?? '')) {
      reply.hijack();
      serveService(req.raw, reply.raw);
      return;
    }
    const state = holder.current;
    const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const rows = [...state.model.collections.values()]
      .map(
        (c) =>
          `<li><a href="${esc(`${base}${c.list.path}?format=api`)}">${esc(c.list.path)}</a> ${esc(c.list.summary)} <small>(${c.count} items, ${esc(c.source)})</small></li>`,
      )
      .join('\n');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Workplace Administration Service stub</title></head><body><h1>Workplace Administration Service stub</h1><p><a href="/docs">API reference</a> · <a href="/openapi.json">openapi.json</a> · <a href="/openapi.yaml">openapi.yaml</a></p><ul>${rows}</ul></body></html>`,
      );
  });
}
