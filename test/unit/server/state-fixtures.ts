// The states of the tests' own small specs (test/fixtures/<name>/), loaded once per test file.
import path from 'node:path';
import { loadState, type StubState } from '../../../src/load/state.js';
import { stateOptions } from '../../../src/server/config.js';
import { ROOT } from '../../cli-helpers.js';
import { testConfig } from '../../helpers.js';

export const fixtureDir = (name: string): string => path.join(ROOT, 'test', 'fixtures', name);
export const ACTIONS_HANDLERS = path.join(fixtureDir('actions'), 'handlers.ts');

const states = new Map<string, Promise<StubState>>();
/** The state of test/fixtures/<name>, with the actions' handlers when `handlers`. */
export function fixtureState(name: 'mini' | 'actions' | 'designer', handlers = false): Promise<StubState> {
  const key = `${name}|${handlers}`;
  let s = states.get(key);
  if (!s) {
    s = loadState(
      stateOptions(
        testConfig({
          specFile: path.join(fixtureDir(name), 'openapi.yaml'),
          fixturesDir: path.join(fixtureDir(name), 'fixtures'),
          handlersFile: handlers ? ACTIONS_HANDLERS : undefined,
        }),
      ),
    );
    states.set(key, s);
  }
  return s;
}
