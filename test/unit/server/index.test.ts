import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as server from '../../../src/server/index.js';
import { fixtureDir } from './state-fixtures.js';

describe('workplace-admin-stub/server: what the entry exports', () => {
  it('exactly the documented names', () => {
    expect(Object.keys(server).sort()).toEqual(
      ['DEFAULTS', 'buildApp', 'coreOptions', 'loadState', 'resolveConfig', 'serve', 'stateOptions'].sort(),
    );
  });

  it('they work together: a configuration resolved, its state loaded, the app built, a request answered', async () => {
    const r = server.resolveConfig({
      logLevel: 'silent',
      allowedHosts: ['*'],
      specFile: path.join(fixtureDir('mini'), 'openapi.yaml'),
      fixturesDir: path.join(fixtureDir('mini'), 'fixtures'),
    });
    if (!r.ok) throw new Error(r.errors.join('; '));
    const state = await server.loadState(server.stateOptions(r.config));
    const app = await server.buildApp(r.config, { current: state });
    try {
      const res = await app.inject({ url: '/api/v1/stored', headers: { host: 'stub.test' } });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ count: number }>().count).toBe(3);
      expect(server.coreOptions(r.config).pageSize).toBe(server.DEFAULTS.pageSize);
    } finally {
      await app.close();
    }
  });
});
