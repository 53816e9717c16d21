import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { stringify } from 'yaml';
import type { StateHolder } from '../app.js';

const require = createRequire(import.meta.url);
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** The only files of swagger-ui-dist served under /docs/: what the page loads, nothing else. */
const SWAGGER_UI_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'favicon-16x16.png']);

/** The spec as the stub serves it: the bundled document, with this stub first among the servers. */
export function servedSpec(holder: StateHolder, baseUrl: string): Record<string, unknown> {
  const doc = holder.current.spec.doc;
  const servers = Array.isArray(doc.servers) ? doc.servers : [];
  return { ...doc, servers: [{ url: baseUrl, description: 'This stub (the address you called)' }, ...servers] };
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

function wantsHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  return /text\/html/.test(accept);
}

/**
 * The stub's own pages, beside the service's paths: `/` (an index), `/openapi.json` and
 * `/openapi.yaml` (the spec as served now), `/docs` (Swagger UI, served from the npm package,
 * no CDN, its requests going to this stub).
 */
export async function registerMetaRoutes(app: FastifyInstance, holder: StateHolder): Promise<void> {
  await app.register(fastifyStatic, {
    root: SWAGGER_UI_DIR,
    prefix: '/docs/',
    index: false,
    list: false,
    dotfiles: 'deny',
    allowedPath: (pathName) => SWAGGER_UI_FILES.has(pathName.replace(/^\//, '')),
    decorateReply: false,
  });
  const docs = (_req: FastifyRequest, reply: FastifyReply) => reply.type('text/html; charset=utf-8').send(DOCS_HTML);
  app.get('/docs', docs);
  app.get('/openapi.json', (req, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(servedSpec(holder, req.baseUrl))));
  app.get('/openapi.yaml', (req, reply) => reply.type('application/yaml; charset=utf-8').send(stringify(servedSpec(holder, req.baseUrl), { aliasDuplicateObjects: false })));
  app.get('/', (req, reply) => {
    const collections = [...holder.current.collections.values()].map((c) => ({
      path: c.list.path,
      url: `${req.baseUrl}${c.list.path}?format=api`,
      summary: c.list.summary,
      source: c.source,
      count: c.items.length,
    }));
    const index = {
      service: 'Workplace Administration Service (stub)',
      collections,
      spec: { json: `${req.baseUrl}/openapi.json`, yaml: `${req.baseUrl}/openapi.yaml` },
      docs: `${req.baseUrl}/docs`,
    };
    if (!wantsHtml(req)) return reply.type('application/json').send(Buffer.from(JSON.stringify(index)));
    const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const rows = collections.map((c) => `<li><a href="${esc(c.url)}">${esc(c.path)}</a> ${esc(c.summary)} <small>(${c.count} items, ${esc(c.source)})</small></li>`).join('\n');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Workplace Administration Service stub</title></head><body><h1>Workplace Administration Service stub</h1><p><a href="/docs">API reference</a> · <a href="/openapi.json">openapi.json</a> · <a href="/openapi.yaml">openapi.yaml</a></p><ul>${rows}</ul></body></html>`,
      );
  });
}
