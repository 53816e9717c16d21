import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, replay } = recordedTable('drf/views.json');

describe('the view: 405 and Allow, as the reference deployment answers (recorded in ../recorded/drf/views.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
