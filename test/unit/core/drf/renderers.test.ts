import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, replay } = recordedTable('drf/renderers.json');

describe('JSON rendering, as the reference deployment answers (recorded in ../recorded/drf/renderers.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
