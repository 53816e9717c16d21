import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, differing, replay } = recordedTable('django/http.json', {
  'bad_request: a disallowed host':
    "Django's 400 for a refused Host comes from CommonMiddleware, outside XFrameOptionsMiddleware: no X-Frame-Options; the stub sends it",
  'bad_request with no page behind it': "Django's 400 for a refused Host has no X-Frame-Options; the stub sends it",
  'bad_request on HEAD':
    "Django's 400 for a refused Host on HEAD: Content-Length 0 and no X-Frame-Options; the stub gives the page's length and the header",
  'a redirect has no body':
    "CommonMiddleware's APPEND_SLASH redirect never reaches XFrameOptionsMiddleware: no X-Frame-Options; the stub sends it",
});

describe("Django's own pages and headers, as the reference deployment answers (recorded in ../recorded/django/http.json)", () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});
