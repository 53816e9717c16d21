// The servers `npm run bench` measures side by side, each set up to answer the stub's own bytes
// for the desk list (`GET /api/v1/desk?format=api`, Host fixed for all), and how each is started.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse, stringify } from 'yaml';

export interface Ctx {
  root: string;
  /** A temporary folder of this run, for generated specs, bodies and configurations. */
  work: string;
  /** The stub's desk list body for `host`: the bytes every target must answer. */
  body: Buffer;
  /** The stub's response headers for it (lower case, in its order; no Date/Connection). */
  headers: Record<string, string>;
  deskPath: string;
  host: string;
  /** `npm start` as package.json runs it, the arguments after `node` (`--max-semi-space-size=2 dist/cli.js serve`). */
  start: string[];
}

export interface Launch {
  cmd: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface TargetDef {
  key: string;
  label: string;
  /** Version of the software measured, when it has one. */
  version(ctx: Ctx): string;
  /** How it is run, for the notes under the table. */
  how: string;
  /** Writes its configuration; throws (with the reason) when it cannot run here. */
  prepare(ctx: Ctx): Promise<void>;
  launch(ctx: Ctx, port: number): Launch;
  /** Installed in bench/peers (not the project's own install). */
  needsPeers?: boolean;
  /** Start-up budget before it is reported as not started. */
  startTimeoutMs: number;
}

export const PEERS = 'bench/peers';
const node = process.execPath;
const rel = (ctx: Ctx, ...p: string[]) => path.join(ctx.root, ...p);
const pkgVersion = (file: string): string => {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '?';
  } catch {
    return 'not installed';
  }
};
const need = (file: string, what: string) => {
  if (!existsSync(file)) throw new Error(`${what} is not installed (${path.relative(process.cwd(), file)} missing)`);
};

/** The stub's own spec, copied, with the desk list's 200 example replaced by the stub's body. */
async function specWithBody(ctx: Ctx): Promise<{ file: string; operationId: string }> {
  const dir = path.join(ctx.work, 'spec');
  const file = path.join(dir, 'openapi.yaml');
  const src = rel(ctx, 'openapi');
  if (!existsSync(file)) {
    await cp(src, dir, { recursive: true });
    const doc = parse(readFileSync(path.join(src, 'openapi.yaml'), 'utf8')) as {
      paths: Record<
        string,
        Record<
          string,
          { operationId?: string; responses?: Record<string, { content?: Record<string, Record<string, unknown>> }> }
        >
      >;
    };
    const deskPath = ctx.deskPath.split('?')[0] ?? '';
    const op = doc.paths[deskPath]?.get;
    const media = op?.responses?.['200']?.content?.['application/json'];
    if (!op || !media) throw new Error(`the spec declares no JSON 200 answer for GET ${deskPath}`);
    delete media.example;
    media.examples = {
      bench: {
        summary: "The stub's desk list, as the bench measures it",
        value: JSON.parse(ctx.body.toString('utf8')),
      },
    };
    await writeFile(file, stringify(doc, { lineWidth: 0 }));
  }
  const doc = parse(readFileSync(file, 'utf8')) as { paths: Record<string, { get?: { operationId?: string } }> };
  return { file, operationId: doc.paths[ctx.deskPath.split('?')[0] ?? '']?.get?.operationId ?? '' };
}

const prismJs = (ctx: Ctx) => rel(ctx, 'node_modules/@stoplight/prism-cli/dist/index.js');
const prismVersion = (ctx: Ctx) => pkgVersion(rel(ctx, 'node_modules/@stoplight/prism-cli/package.json'));
const stubArgs = (ctx: Ctx, port: number, quiet: boolean) => [
  ...ctx.start,
  '--port',
  String(port),
  ...(quiet ? ['-q'] : []),
];
const stubVersion = (ctx: Ctx) => pkgVersion(rel(ctx, 'package.json'));

export const TARGETS: TargetDef[] = [
  {
    key: 'raw',
    label: 'raw node:http',
    version: () => process.version,
    how: "`bench/raw-server.mjs`: node:http writing the stub's exact headers and body, no routing: the practical limit",
    startTimeoutMs: 30_000,
    async prepare(ctx) {
      await writeFile(path.join(ctx.work, 'raw-body.json'), ctx.body);
      await writeFile(path.join(ctx.work, 'raw-headers.json'), JSON.stringify(ctx.headers));
    },
    launch: (ctx, port) => ({
      cmd: node,
      args: [
        'bench/raw-server.mjs',
        String(port),
        path.join(ctx.work, 'raw-body.json'),
        path.join(ctx.work, 'raw-headers.json'),
      ],
      cwd: ctx.root,
    }),
  },
  {
    key: 'stub',
    label: 'stub (npm start)',
    version: stubVersion,
    how: "package.json's `start` script run by node directly (as `npm start` runs it, without npm in front): its default request log on (one line per request, to stdout: a file, read after the load, so that the load generator never reads it), CORS on",
    startTimeoutMs: 60_000,
    async prepare() {},
    launch: (ctx, port) => ({ cmd: node, args: stubArgs(ctx, port, false), cwd: ctx.root }),
  },
  {
    key: 'stub-q',
    label: 'stub -q',
    version: stubVersion,
    how: 'the same with `-q` (no request log), CORS on',
    startTimeoutMs: 60_000,
    async prepare() {},
    launch: (ctx, port) => ({ cmd: node, args: stubArgs(ctx, port, true), cwd: ctx.root }),
  },
  {
    key: 'prism-silent',
    label: 'Prism (silent)',
    version: prismVersion,
    how: "`prism mock SPEC -v silent` (@stoplight/prism-cli, root devDependency): the stub's spec with the desk list's example replaced by the stub's body (static examples, `--dynamic` off), CORS on (its default)",
    startTimeoutMs: 90_000,
    async prepare(ctx) {
      need(prismJs(ctx), '@stoplight/prism-cli');
      await specWithBody(ctx);
    },
    launch: (ctx, port) => ({
      cmd: node,
      args: [
        prismJs(ctx),
        'mock',
        path.join(ctx.work, 'spec', 'openapi.yaml'),
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-v',
        'silent',
      ],
      cwd: ctx.root,
    }),
  },
  {
    key: 'prism',
    label: 'Prism (default log)',
    version: prismVersion,
    how: 'the same as Prism starts by default (`-v info`: a few log lines per request, to stdout, a file)',
    startTimeoutMs: 90_000,
    async prepare(ctx) {
      need(prismJs(ctx), '@stoplight/prism-cli');
      await specWithBody(ctx);
    },
    launch: (ctx, port) => ({
      cmd: node,
      args: [prismJs(ctx), 'mock', path.join(ctx.work, 'spec', 'openapi.yaml'), '-h', '127.0.0.1', '-p', String(port)],
      cwd: ctx.root,
    }),
  },
  {
    key: 'mockoon',
    needsPeers: true,
    label: 'Mockoon CLI',
    version: (ctx) => pkgVersion(rel(ctx, PEERS, 'node_modules/@mockoon/cli/package.json')),
    how: "`mockoon-cli start -d ENV.json -X` (bench/peers): an environment built with @mockoon/commons' own builders, one route `GET api/v1/desk` answering the body inline with `Content-Type: application/json`; templating, CORS and the transaction log at their defaults, log to stdout only (`-X`, no log file of its own; stdout a file)",
    startTimeoutMs: 90_000,
    async prepare(ctx) {
      const dir = rel(ctx, PEERS, 'node_modules');
      need(path.join(dir, '@mockoon/cli/bin/run.js'), '@mockoon/cli');
      const req = createRequire(path.join(dir, 'noop.js'));
      const commons = req('@mockoon/commons') as {
        BuildEnvironment(p?: object): { routes: unknown[]; rootChildren: unknown[]; name: string; port: number };
        BuildHTTPRoute(
          d?: boolean,
          o?: object,
        ): { uuid: string; responses: { body?: string; headers: { key: string; value: string }[] }[] };
      };
      const env = commons.BuildEnvironment({
        hasDefaultRoute: false,
        hasContentTypeHeader: true,
        hasCorsHeaders: true,
        port: 3000,
      });
      env.name = 'bench';
      const route = commons.BuildHTTPRoute(true, {
        endpoint: (ctx.deskPath.split('?')[0] ?? '').slice(1),
        body: ctx.body.toString('utf8'),
      });
      const response = route.responses[0];
      if (!response) throw new Error('@mockoon/commons built a route without a response');
      response.body = ctx.body.toString('utf8');
      response.headers = [{ key: 'Content-Type', value: 'application/json' }];
      env.routes = [route];
      env.rootChildren = [{ type: 'route', uuid: route.uuid }];
      await writeFile(path.join(ctx.work, 'mockoon.json'), JSON.stringify(env, null, 2));
    },
    launch: (ctx, port) => ({
      cmd: node,
      args: [
        rel(ctx, PEERS, 'node_modules/@mockoon/cli/bin/run.js'),
        'start',
        '-d',
        path.join(ctx.work, 'mockoon.json'),
        '-p',
        String(port),
        '-l',
        '127.0.0.1',
        '-X',
      ],
      cwd: ctx.work,
      env: { ...process.env, HOME: ctx.work },
    }),
  },
  {
    key: 'json-server',
    needsPeers: true,
    label: 'json-server',
    version: (ctx) => pkgVersion(rel(ctx, PEERS, 'node_modules/json-server/package.json')),
    how: "`json-server db.json --routes routes.json --middlewares json-server-compact.cjs` (bench/peers): the db's `desk` is the body's object, routes.json rewrites `/api/v1/desk` to it, the middleware turns json-server's pretty-printing (2 spaces) back to compact JSON; its request log (morgan, to stdout, a file), CORS, no-cache and ETag headers at their defaults",
    startTimeoutMs: 60_000,
    async prepare(ctx) {
      need(rel(ctx, PEERS, 'node_modules/json-server/lib/cli/bin.js'), 'json-server');
      const dir = path.join(ctx.work, 'json-server');
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'db.json'), JSON.stringify({ desk: JSON.parse(ctx.body.toString('utf8')) }));
      await writeFile(path.join(dir, 'routes.json'), JSON.stringify({ [ctx.deskPath.split('?')[0] ?? '']: '/desk' }));
    },
    launch: (ctx, port) => {
      const dir = path.join(ctx.work, 'json-server');
      return {
        cmd: node,
        args: [
          rel(ctx, PEERS, 'node_modules/json-server/lib/cli/bin.js'),
          path.join(dir, 'db.json'),
          '--routes',
          path.join(dir, 'routes.json'),
          '--middlewares',
          rel(ctx, PEERS, 'json-server-compact.cjs'),
          '-p',
          String(port),
          '-H',
          '127.0.0.1',
        ],
        cwd: dir,
      };
    },
  },
  {
    key: 'openapi-backend',
    needsPeers: true,
    label: 'openapi-backend',
    version: (ctx) => pkgVersion(rel(ctx, PEERS, 'node_modules/openapi-backend/package.json')),
    how: "`bench/peers/openapi-backend-server.mjs`: node:http + openapi-backend on the stub's spec (routing and request validation at its defaults), the desk list operation's handler writing the body",
    startTimeoutMs: 60_000,
    async prepare(ctx) {
      need(rel(ctx, PEERS, 'node_modules/openapi-backend/package.json'), 'openapi-backend');
      await specWithBody(ctx);
      await writeFile(path.join(ctx.work, 'raw-body.json'), ctx.body);
    },
    launch: (ctx, port) => ({
      cmd: node,
      args: [
        rel(ctx, PEERS, 'openapi-backend-server.mjs'),
        String(port),
        path.join(ctx.work, 'spec', 'openapi.yaml'),
        'listDesks',
        path.join(ctx.work, 'raw-body.json'),
      ],
      cwd: rel(ctx, PEERS),
    }),
  },
  {
    key: 'wiremock',
    needsPeers: true,
    label: 'WireMock',
    version: (ctx) => pkgVersion(rel(ctx, PEERS, 'node_modules/wiremock/package.json')),
    how: "the jar the `wiremock` npm package ships, `java -jar wiremock-standalone.jar --root-dir DIR` (run by the bench without the package's node launcher, so that RSS is Java's alone): one mapping `GET urlPath /api/v1/desk` answering the body; request journal and JVM at their defaults",
    startTimeoutMs: 90_000,
    async prepare(ctx) {
      wiremockJar(ctx);
      try {
        execFileSync('java', ['-version'], { stdio: 'ignore' });
      } catch {
        throw new Error('no java on PATH');
      }
      const dir = path.join(ctx.work, 'wiremock', 'mappings');
      await mkdir(dir, { recursive: true });
      const mapping = {
        request: { method: 'GET', urlPath: ctx.deskPath.split('?')[0] },
        response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: ctx.body.toString('utf8') },
      };
      await writeFile(path.join(dir, 'desk.json'), JSON.stringify(mapping));
    },
    launch: (ctx, port) => ({
      cmd: 'java',
      args: [
        '-jar',
        wiremockJar(ctx),
        '--port',
        String(port),
        '--bind-address',
        '127.0.0.1',
        '--root-dir',
        path.join(ctx.work, 'wiremock'),
        '--disable-banner',
      ],
      cwd: ctx.work,
    }),
  },
];

function wiremockJar(ctx: Ctx): string {
  const dir = rel(ctx, PEERS, 'node_modules/wiremock/build');
  need(dir, 'wiremock');
  const jar = readdirSync(dir).find((f) => f.endsWith('.jar'));
  if (!jar) throw new Error('the wiremock package holds no jar');
  return path.join(dir, jar);
}
