// The states of the tests' own small specs (test/fixtures/<name>/), loaded once per test file.
import path from 'node:path';
import { loadState, type StubState } from '../../../src/load/state.js';
import { resolveConfig, stateOptions } from '../../../src/server/config.js';
import { ROOT } from '../../cli-helpers.js';

export const fixtureDir = (name: string): string => path.join(ROOT, 'test', 'fixtures', name);
export const ACTIONS_HANDLERS = path.join(fixtureDir('actions'), 'handlers.ts');

const states = new Map<string, Promise<StubState>>();
/** The state of test/fixtures/<name>, with the actions' handlers when `handlers`. */
export function fixtureState(name: 'mini' | 'actions' | 'designer', handlers = false): Promise<StubState> {
  const key = `${name}|${handlers}`;
  let s = states.get(key);
  if (!s) {
    // Not test/helpers.ts's testConfig: it imports the app, and Fastify with it.
    const config = resolveConfig({
      specFile: path.join(fixtureDir(name), 'openapi.yaml'),
      fixturesDir: path.join(fixtureDir(name), 'fixtures'),
      handlersFile: handlers ? ACTIONS_HANDLERS : undefined,
    });
    if (!config.ok) throw new Error(config.errors.join('; '));
    s = loadState(stateOptions(config.config));
    states.set(key, s);
  }
  return s;
}
