import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, replay } = recordedTable('drf/metadata.json');

describe('OPTIONS metadata, as the reference deployment answers (recorded in ../recorded/drf/metadata.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
