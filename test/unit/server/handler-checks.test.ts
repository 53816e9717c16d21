import { describe, expect, it } from 'vitest';
import { rel } from '../../../src/load/paths.js';
import { answerChecker, describeHandlerProblem } from '../../../src/server/handler-checks.js';
import handlers from '../../fixtures/actions/handlers.js';
import { ACTIONS_HANDLERS, fixtureState } from './state-fixtures.js';

const state = await fixtureState('actions');
const op = (id: string) => {
  const found = state.model.operations.routes.flatMap((r) => [...r.methods.values()]).find((o) => o.operationId === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};

describe("answerChecker: a handler's answer held to the spec", () => {
  it.each<[string, string, number, unknown, { pointer: string; message: string }[]]>([
    ['a body the schema allows', 'getCurrentUser', 200, { name: 'Ada', staff: true }, []],
    [
      'a member of the wrong type',
      'getCurrentUser',
      200,
      { name: 7, staff: true },
      [{ pointer: '/name', message: 'must be string' }],
    ],
    [
      'a member missing',
      'getCurrentUser',
      200,
      { name: 'Ada' },
      [{ pointer: '', message: 'must have required property "staff"' }],
    ],
    [
      'a status not declared',
      'getCurrentUser',
      418,
      {},
      [{ pointer: '', message: 'status 418 is not declared (declared: 200)' }],
    ],
    ['no body to check', 'getCurrentUser', 200, undefined, []],
  ])('%s', (_name, id, status, body, want) => {
    expect(answerChecker(state)(op(id), status, body)).toEqual(want);
  });
});

describe('describeHandlerProblem: one line for the log', () => {
  it('an answer its declaration refuses: each violation with its pointer', () => {
    const line = describeHandlerProblem(
      {
        operationId: 'getCurrentUser',
        violations: [
          { pointer: '', message: 'm1' },
          { pointer: '/name', message: 'm2' },
        ],
      },
      undefined,
    );
    expect(line).toBe('handler getCurrentUser answered what its declaration refuses: (body) m1; /name m2');
  });

  it('a handler that threw: where in the handlers file, and what', () => {
    let thrown: unknown;
    try {
      (handlers.boom as () => unknown)();
    } catch (e) {
      thrown = e;
    }
    expect(describeHandlerProblem({ operationId: 'boom', error: thrown }, ACTIONS_HANDLERS)).toMatch(
      new RegExp(
        `^handler boom threw at ${rel(ACTIONS_HANDLERS).replaceAll('.', '\\.')}:\\d+:\\d+: the handler broke \\(answered Django's 500 page\\)$`,
      ),
    );
    expect(describeHandlerProblem({ operationId: 'boom', error: 'a string' }, undefined)).toBe(
      "handler boom threw: a string (answered Django's 500 page)",
    );
  });
});
