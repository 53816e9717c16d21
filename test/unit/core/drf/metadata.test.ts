import { describe, expect, it } from 'vitest';
import { bundledSnapshot } from '../../../../src/adapters/fetch.js';
import { StubCore } from '../../../../src/core/answer.js';
import { compileSnapshot } from '../../../../src/core/model.js';
import { coreOptions } from '../../../../src/server/app.js';
import { ask, testConfig } from '../../../helpers.js';
import { recordedTable } from '../recorded/recording.js';

const { cases, replay } = recordedTable('drf/metadata.json');

describe('OPTIONS metadata, as the reference deployment answers (recorded in ../recorded/drf/metadata.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});

describe("a string field's type by its format", () => {
  it.each([
    ['email', 'email'],
    ['date-time', 'datetime'],
    ['uuid', 'string'],
    // Names an object has by its prototype are no format of DRF's: the field is a string.
    ['constructor', 'string'],
    ['toString', 'string'],
  ])('format %s: type %s', (format, want) => {
    const snapshot = structuredClone(bundledSnapshot());
    const spec = snapshot.spec as { components: { schemas: Record<string, { properties: Record<string, object> }> } };
    const number = spec.components.schemas.DeskRequest?.properties.number as Record<string, unknown>;
    number.format = format;
    const core = new StubCore(compileSnapshot(snapshot), coreOptions(testConfig()));
    const body = JSON.parse(ask(core, '/api/v1/desk', { method: 'OPTIONS' }).body) as {
      actions: { POST: { number: { type: string } } };
    };
    expect(body.actions.POST.number.type).toBe(want);
  });
});
