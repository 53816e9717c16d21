import type { AddressInfo } from 'node:net';
import { serialize } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import { type CoreAnswer, StubCore } from '../src/core/answer.js';
import { loadState, type StubState } from '../src/load/state.js';
import { buildApp, coreOptions } from '../src/server/app.js';
import { DEFAULTS, resolveConfig, stateOptions, type StubConfig } from '../src/server/config.js';

export const SPEC = DEFAULTS.specFile;
export const FIXTURES = DEFAULTS.fixturesDir;

/**
 * How V8 stores a string, as its serializer tells it: a one-byte string is written under the tag
 * `"`, a two-byte one under `c` (v8's value-serializer format, after its two-byte header).
 */
export const v8Storage = (s: string): string | undefined =>
  ({ '"': 'one-byte', c: 'two-byte' })[String.fromCharCode(serialize(s)[2] ?? 0)];

export function testConfig(overrides: Partial<StubConfig> = {}): StubConfig {
  // Tests send `Host: stub.test`: every host is answered unless a test asks for the default.
  const r = resolveConfig({ logLevel: 'silent', allowedHosts: ['*'], ...overrides });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.config;
}

const states = new Map<string, Promise<StubState>>();

/** The state of a spec and fixtures folder, loaded once per test file. */
export function stateFor(config: StubConfig): Promise<StubState> {
  const key = `${config.specFile}|${config.fixturesDir}|${config.seed}|${config.generateCount}`;
  let s = states.get(key);
  if (!s) {
    s = loadState(stateOptions(config));
    states.set(key, s);
  }
  return s;
}

export async function makeApp(overrides: Partial<StubConfig> = {}): Promise<FastifyInstance> {
  const config = testConfig(overrides);
  const app = await buildApp(config, { current: await stateFor(config) });
  await app.ready();
  return app;
}

/** The core over a state, with the server's options for a configuration. */
export function coreOf(state: StubState, overrides: Partial<StubConfig> = {}): StubCore {
  const config = testConfig(overrides);
  return new StubCore(state.model, coreOptions(config, state));
}

/** One request to a core: `headers` by lower-case name (host defaults to `stub.test`). */
export function ask(
  core: StubCore,
  url: string,
  opts: { method?: string; headers?: Record<string, string> } = {},
): CoreAnswer {
  const headers: Record<string, string> = { host: 'stub.test', ...opts.headers };
  return settled(core.answer({ method: opts.method ?? 'GET', url, header: (n) => headers[n] }));
}

/** A core's answer that came at once (no handler awaited): the answer itself. */
export function settled(answer: CoreAnswer | Promise<CoreAnswer>): CoreAnswer {
  if (answer instanceof Promise) throw new Error('the core answered asynchronously: await it');
  return answer;
}

/** Listens on an ephemeral loopback port; answers the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** The 20 collection paths of the interface document, §4, written out independently of the spec. */
export const DOCUMENT_COLLECTIONS = [
  'signature',
  'teleworksignature',
  'viewedsecuritymessage',
  'responsibilitytags',
  'expense-statement',
  'expense-month-lock',
  'employee',
  'deskreservation',
  'mealstop',
  'expense',
  'desk',
  'teleworkapplication',
  'transitionchange',
  'timeoffrequest',
  'expense-month',
  'reviewnote',
  'stepchoice',
  'review',
  'jobtitle',
  'workflow',
] as const;

/** The desk's nine fields of the interface document, §2.2, in its order, written out independently of the spec. */
export const DOCUMENT_DESK_FIELDS = [
  'url',
  'pk',
  'building',
  'floor',
  'number',
  'active',
  'lead',
  'ergonomic',
  'held_today',
] as const;

/**
 * The deployment's DefaultRouter prefixes in its registration order (lcog-team's `api/urls.py`,
 * as its API root lists them), of which the document's 20 collections are a part.
 */
export const DEPLOYMENT_ROUTER_ORDER = [
  'user',
  'groups',
  'employee',
  'jobtitle',
  'unit',
  'responsibilities',
  'responsibilitytags',
  'desk',
  'deskreservation',
  'expense-gl',
  'expense',
  'expense-month',
  'expense-month-lock',
  'expense-statement',
  'review',
  'signature',
  'reviewnote',
  'telework-fileupload',
  'teleworkapplication',
  'teleworksignature',
  'securitymessage',
  'viewedsecuritymessage',
  'timeoffrequest',
  'process',
  'processinstance',
  'role',
  'step',
  'stepchoice',
  'stepinstance',
  'workflow',
  'workflowinstance',
  'employeetransition',
  'transitionchange',
  'mealstop',
  'log-error',
  'fileupload',
  'trustedip',
] as const;
