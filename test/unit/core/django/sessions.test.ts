import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, differing, replay } = recordedTable('django/sessions.json', {
  'other cookies only':
    "Django's CsrfViewMiddleware sets a new csrftoken cookie in place of the malformed `csrftoken=abc`; the stub sets none",
});

describe("SessionMiddleware's cookie, as the reference deployment answers (recorded in ../recorded/django/sessions.json)", () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});
