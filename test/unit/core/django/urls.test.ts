import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, replay } = recordedTable('django/urls.json');

describe('paths resolved and urls written, as the reference deployment answers (recorded in ../recorded/django/urls.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
