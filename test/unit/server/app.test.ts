import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StubState } from '../../../src/load/state.js';
import { deploymentHandlers } from '../../../src/deployment/handlers.js';
import { buildApp, coreOptions, handlersOf } from '../../../src/server/app.js';
import { DEFAULTS } from '../../../src/server/config.js';
import { MAX_BODY_BYTES } from '../../../src/server/node-adapter.js';
import { testConfig } from '../../helpers.js';
import { fixtureDir, fixtureState } from './state-fixtures.js';

const mini = await fixtureState('mini');
const actions = await fixtureState('actions', true);
const config = testConfig({
  specFile: path.join(fixtureDir('mini'), 'openapi.yaml'),
  fixturesDir: path.join(fixtureDir('mini'), 'fixtures'),
});

describe('handlersOf: --handlers, else the deployment’s own with the bundled spec', () => {
  it.each<[string, string, StubState | undefined, unknown]>([
    ['the bundled spec', DEFAULTS.specFile, undefined, deploymentHandlers],
    ['a spec of the designer’s', config.specFile, undefined, undefined],
    ['--handlers, whatever the spec', DEFAULTS.specFile, actions, actions.handlers],
  ])('%s', (_name, specFile, state, want) => {
    expect(handlersOf(testConfig({ specFile }), state)).toBe(want);
  });
});

describe("coreOptions: the core's options from the server's configuration", () => {
  it.each<[string, string, number, string]>([
    ['a host and port', '127.0.0.1', 4010, '127.0.0.1:4010'],
    ['an IPv6 host in brackets', '::1', 4010, '[::1]:4010'],
    ['port 80 left out, as PEP 333 builds SERVER_NAME', 'stub.test', 80, 'stub.test'],
  ])("fallbackHost (Django's SERVER_NAME:SERVER_PORT): %s", (_name, host, port, want) => {
    expect(coreOptions(testConfig({ host, port })).fallbackHost).toBe(want);
  });

  it('passes the configuration on; what needs a state only with one', () => {
    const c = testConfig({
      pageSize: 7,
      validateRequests: true,
      now: '2026-01-05T10:00:00Z',
      journal: 3,
      maxSessions: 2,
      strictHandlers: true,
    });
    const without = coreOptions(c);
    expect([
      without.pageSize,
      without.validateQuery,
      without.checkAnswer,
      without.journal,
      without.maxSessions,
      without.strictHandlers,
    ]).toEqual([7, undefined, undefined, 3, 2, true]);
    expect(without.now?.().toISOString()).toBe('2026-01-05T10:00:00.000Z');
    const onProblem = () => undefined;
    const withState = coreOptions(c, mini, onProblem);
    expect([typeof withState.validateQuery, typeof withState.checkAnswer, withState.onHandlerProblem]).toEqual([
      'function',
      'function',
      onProblem,
    ]);
    expect(coreOptions(testConfig({ validateRequests: false }), mini).validateQuery).toBeUndefined();
    expect(coreOptions(testConfig()).now).toBeUndefined();
  });
});

const holder = { current: mini };
const app = await buildApp(config, holder);
afterAll(() => app.close());

describe('buildApp: Fastify, the one entrance', () => {
  const ask = (method: string, url: string, payload?: string, headers: Record<string, string> = {}) =>
    app.inject({ method: method as 'GET', url, payload, headers: { host: 'stub.test', ...headers } });

  it('never listens; no request log when silent; one core per state', () => {
    expect(app.server.listening).toBe(false);
    expect(app.requestLog).toBeUndefined();
    expect(app.coreOf(mini)).toBe(app.coreOf(mini));
    expect(app.coreOf(actions)).not.toBe(app.coreOf(mini));
  });

  it('a service request, answered by the core, then again from the answer cache', async () => {
    const first = await ask('GET', '/api/v1/stored');
    expect([first.statusCode, first.json<{ count: number }>().count]).toEqual([200, 3]);
    expect(app.answerCache.size).toBe(1);
    const again = await ask('GET', '/api/v1/stored');
    expect(again.body).toBe(first.body);
    expect(app.answerCache.size).toBe(1);
    expect(
      app
        .coreOf(mini)
        .requests()
        .map((r) => r.url),
    ).toEqual(['/api/v1/stored', '/api/v1/stored']);
  });

  it('a reload: the next state is served, by its own core', async () => {
    const core = app.coreOf(mini);
    holder.current = actions;
    try {
      expect((await ask('GET', '/api/v1/stored')).statusCode).toBe(404);
      expect((await ask('GET', '/api/v1/thing')).statusCode).toBe(200);
      expect(app.coreOf(actions)).not.toBe(core);
    } finally {
      holder.current = mini;
    }
  });

  it.each<[string, string, string, string | undefined, number]>([
    ['a method Node knows and the spec does not declare', 'PROPFIND', '/api/v1/stored', undefined, 405],
    ['a write with a body of any type', 'POST', '/api/v1/stored', 'plain text', 405],
    ['a target the router would decode', 'GET', '/api/v1/st%6Fred', undefined, 200],
    ['a target with a fragment-like %23', 'GET', '/docs%23', undefined, 404],
  ])('%s: %s %s → %d', async (_name, method, url, payload, status) => {
    expect((await ask(method, url, payload, payload ? { 'content-type': 'text/plain' } : {})).statusCode).toBe(status);
  });

  it("a body over Django's DATA_UPLOAD_MAX_MEMORY_SIZE: its 400 page, the connection closed", async () => {
    const r = await ask('POST', '/api/v1/stored', 'x'.repeat(MAX_BODY_BYTES + 1), {
      'content-type': 'application/json',
    });
    expect([r.statusCode, r.headers.connection, r.headers['content-type']]).toEqual([
      400,
      'close',
      'text/html; charset=utf-8',
    ]);
  });
});
