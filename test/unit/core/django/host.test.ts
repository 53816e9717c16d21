import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, replay } = recordedTable('django/host.json');

describe('the Host header and ALLOWED_HOSTS, as the reference deployment answers (recorded in ../recorded/django/host.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});
