import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, differing, replay } = recordedTable('django/http.json', {
  'bad_request on HEAD': "Django's 400 for a refused Host on HEAD: Content-Length 0; the stub gives the page's length",
});

describe("Django's own pages and headers, as the reference deployment answers (recorded in ../recorded/django/http.json)", () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});
