import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { DEFAULTS, resolveConfig, type StubConfig } from '../src/config.js';
import { loadState, type StubState } from '../src/state.js';

export const SPEC = DEFAULTS.specFile;
export const FIXTURES = DEFAULTS.fixturesDir;

export function testConfig(overrides: Partial<StubConfig> = {}): StubConfig {
  const r = resolveConfig({ logLevel: 'silent', ...overrides });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.config;
}

const states = new Map<string, Promise<StubState>>();

/** The state of a spec and fixtures folder, loaded once per test file. */
export function stateFor(config: StubConfig): Promise<StubState> {
  const key = `${config.specFile}|${config.fixturesDir}|${config.seed}|${config.generateCount}`;
  let s = states.get(key);
  if (!s) {
    s = loadState({ specFile: config.specFile, fixturesDir: config.fixturesDir, seed: config.seed, defaultGenerateCount: config.generateCount });
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
