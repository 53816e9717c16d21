import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, differing, replay } = recordedTable('django/csrf.json', {
  'a cookie of the wrong length':
    "Django's CsrfViewMiddleware sets a new csrftoken cookie in place of a malformed one; the stub sets none",
  'a cookie with invalid characters':
    "Django's CsrfViewMiddleware sets a new csrftoken cookie in place of a malformed one; the stub sets none",
});

describe("CSRF on a logged-in session's writes, as the reference deployment answers (recorded in ../recorded/django/csrf.json)", () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});
