import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, differing, replay } = recordedTable('django/middleware.json', {
  "CommonMiddleware's redirect":
    "CommonMiddleware's APPEND_SLASH redirect never reaches XFrameOptionsMiddleware: no X-Frame-Options; the stub sends it",
  "a disallowed host's 400":
    "Django's 400 for a refused Host comes from CommonMiddleware, outside XFrameOptionsMiddleware: no X-Frame-Options; the stub sends it",
});

describe("the deployment's middleware, as the reference deployment answers (recorded in ../recorded/django/middleware.json)", () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});
