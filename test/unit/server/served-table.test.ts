import { describe, expect, it } from 'vitest';
import { answersTable, servedTable } from '../../../src/server/served-table.js';
import { fixtureState } from './state-fixtures.js';

describe('servedTable: one row per collection', () => {
  it('where its items come from, how many (right-aligned), its methods and parameters', async () => {
    expect(servedTable(await fixtureState('mini'))).toEqual([
      '  collection           items from                                       count  methods  item methods  parameters',
      '  /api/v1/stored       fixture test/fixtures/mini/fixtures/stored.json      3  GET      GET           -',
      '  /api/v1/exampled     examples                                             2  GET      -             -',
      '  /api/v1/generated    generated (on first request)                         5  GET      -             -',
      '  /api/v1/undescribed  empty                                                0  GET      -             -',
    ]);
  });
});

describe('answersTable: operations answered otherwise than by the collection rules', () => {
  it('each with where its answer comes from, a handler first where there is one', async () => {
    const state = await fixtureState('actions', true);
    const table = answersTable(state, state.handlers);
    expect(table).toEqual([
      '  operation                      operationId       answered by',
      '  POST /api/v1/thing             createThing       handler, else collection',
      '  GET /api/v1/thing/simple_list  listSimpleThings  generated',
      '  GET /api/v1/thing/summary      thingSummary      fixture thing-summary',
      '  PUT /api/v1/thing/{pk}/close   closeThing        handler, else generated',
      '  GET /api/v1/current-user/      getCurrentUser    handler, else example',
      '  GET /api/v1/trusted            isTrusted         example',
      '  POST /api/v1/ping              ping              none',
      '  GET /api/v1/boom               boom              handler, else example',
    ]);
    // Without the handlers, a collection's own operation is the collection's: no row.
    const without = answersTable(state, undefined);
    expect(without.some((l) => l.includes('handler') || l.includes('createThing'))).toBe(false);
    expect(without).toHaveLength(table.length - 1);
  });

  it('nothing when every operation is a collection’s', async () => {
    expect(answersTable(await fixtureState('mini'), undefined)).toEqual([]);
  });
});
