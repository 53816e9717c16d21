// A deployment as a function of the request, for the contract's unit tests: answers made in
// process (no socket), an honest one that keeps every rule, and a client that asks it.
import type { IncomingHttpHeaders } from 'node:http';
import type { Answer, ClientOptions, Failure, Fetched } from '../../../src/contract/http.js';
import { type Contract, loadContract } from '../../../src/contract/load.js';
import { DEFAULTS } from '../../../src/server/config.js';

export const BASE = 'https://staging.test';
export const DESKS = '/api/v1/desk';
export const EMPLOYEES = '/api/v1/employee';
/** The crawl the checker and recorder tests start from: the desks, two at a time, ten pages at most. */
export const CRAWL = {
  baseUrl: BASE,
  headers: {},
  timeoutMs: 1000,
  concurrency: 2,
  maxPages: 10,
  only: ['desk'],
};

let contract: Promise<Contract> | undefined;
/** The bundled spec's contract, loaded once per test file. */
export function bundledContract(): Promise<Contract> {
  contract ??= loadContract(DEFAULTS.specFile);
  return contract;
}

/** A desk item as the deployment at `base` lists it. */
export function desk(pk: number, base = BASE): Record<string, unknown> {
  return {
    url: `${base}${DESKS}/${pk}?format=api`,
    pk,
    building: 'S',
    floor: 1,
    number: String(100 + pk),
    active: true,
    lead: false,
    ergonomic: pk % 2 === 0,
    held_today: false,
  };
}

/** An answer with a JSON (or text) body. */
export function answer(status: number, body: unknown, headers: IncomingHttpHeaders = {}): Answer {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const h: IncomingHttpHeaders = { 'content-type': 'application/json', ...headers };
  return {
    ok: true,
    status,
    headers: h,
    contentType: String(h['content-type'] ?? ''),
    body: Buffer.from(text),
    text,
    ms: 1,
  };
}

export function failure(code: string, error = `failed: ${code}`): Failure {
  return { ok: false, code, error, ms: 1 };
}

export interface Asked {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
}

export type Route = (req: Asked) => Fetched;

const LIST_HEADERS = { allow: 'GET, POST, HEAD, OPTIONS', vary: 'Accept' };
const ITEM_HEADERS = { allow: 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS', vary: 'Accept' };

/**
 * A DRF deployment of one collection at `base`: pages of `pageSize` (links keep `format`, the first
 * page's without `page`), each item at its url, DRF's errors for an invalid page, an unknown format
 * or pk and a method not allowed, HEAD as GET without a body.
 */
export function honest(items: readonly Record<string, unknown>[], pageSize = 2, base = BASE, path = DESKS): Route {
  return ({ method, url }) => {
    const rel = url.pathname.slice(new URL(base).pathname.replace(/\/$/, '').length);
    const format = url.searchParams.get('format');
    const head = (a: Answer): Answer => (method === 'HEAD' ? answer(a.status, '', a.headers) : a);
    if (format !== null && format !== 'api' && format !== 'json')
      return head(answer(404, { detail: 'Not found.' }, LIST_HEADERS));
    if (rel === path) {
      if (!['GET', 'HEAD', 'POST', 'OPTIONS'].includes(method))
        return answer(405, { detail: `Method "${method}" not allowed.` }, LIST_HEADERS);
      const pages = Math.max(1, Math.ceil(items.length / pageSize));
      const asked = url.searchParams.get('page') ?? '1';
      const page = /^[1-9][0-9]*$/.test(asked) ? Number(asked) : 0;
      if (page < 1 || page > pages) return head(answer(404, { detail: 'Invalid page.' }, LIST_HEADERS));
      const link = (n: number) => {
        const q = new URLSearchParams(format === null ? {} : { format });
        if (n > 1) q.set('page', String(n));
        const s = q.toString();
        return `${base}${path}${s ? `?${s}` : ''}`;
      };
      return head(
        answer(
          200,
          {
            count: items.length,
            next: page < pages ? link(page + 1) : null,
            previous: page > 1 ? link(page - 1) : null,
            results: items.slice((page - 1) * pageSize, page * pageSize),
          },
          LIST_HEADERS,
        ),
      );
    }
    if (rel.startsWith(`${path}/`)) {
      const item = items.find((i) => String(i.pk) === rel.slice(path.length + 1));
      return head(
        item
          ? answer(200, item, ITEM_HEADERS)
          : answer(404, { detail: 'No Desk matches the given query.' }, ITEM_HEADERS),
      );
    }
    return answer(404, '<h1>Not Found</h1>', { 'content-type': 'text/html' });
  };
}

/** The checker's client over a route: credentials to the base only, as HttpClient sends them. */
export class FakeClient {
  requests = 0;
  readonly asked: Asked[] = [];

  constructor(
    readonly opts: Pick<ClientOptions, 'scope' | 'headers'>,
    readonly route: Route,
  ) {}

  async request(method: string, url: string, extra: { headers?: Record<string, string> } = {}): Promise<Fetched> {
    this.requests++;
    const headers = { ...(this.opts.scope.contains(url) ? this.opts.headers : {}), ...extra.headers };
    const req = { method, url: new URL(url), headers };
    this.asked.push(req);
    return this.route(req);
  }

  get(url: string): Promise<Fetched> {
    return this.request('GET', url);
  }

  close(): void {}
}

/** The route that HttpClient, replaced by `vi.mock`, asks (tests of runCheck and what calls it). */
export const deployed: { route: Route } = { route: () => failure('ECONNREFUSED') };

/** HttpClient as `vi.mock` puts it in place: asks `deployed.route`. */
export class DeployedClient extends FakeClient {
  /** Every client made, in order. */
  static readonly made: DeployedClient[] = [];
  constructor(opts: ClientOptions) {
    super(opts, (req) => deployed.route(req));
    DeployedClient.made.push(this);
  }
}

/**
 * The module `src/contract/http.js` with DeployedClient in HttpClient's place, for
 * `vi.mock('…/src/contract/http.js', async (real) => (await import('…/fake-deployment.js')).deployedHttp(real))`.
 */
export async function deployedHttp(real: () => Promise<unknown>): Promise<object> {
  return { ...((await real()) as object), HttpClient: DeployedClient };
}
