import { describe, expect, it } from 'vitest';
import { parseHeaderParameters } from '../../../../src/core/drf/negotiation.js';
import { recordedTable } from '../recorded/recording.js';

describe('media type parameters', () => {
  // This took seconds before (a rescan per `;`): the suite's timeout catches a return of it.
  it('a header of 8,000 quoted semicolons', () => {
    expect(parseHeaderParameters(`text/plain; a="${';"'.repeat(4000)}`).type).toBe('text/plain');
  });
});

const { cases, replay } = recordedTable('drf/negotiation.json');

describe('content negotiation, as the reference deployment answers (recorded in ../recorded/drf/negotiation.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
