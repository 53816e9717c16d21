import { describe, expect, it } from 'vitest';
import { recordedTable } from '../recorded/recording.js';

const { cases, differing, replay } = recordedTable('drf/serializers.json', {
  'building a float': 'ChoiceField\'s message holds Python\'s str(1.0), "1.0"; the stub writes "1"',
  'floor of 1000 digits':
    "Python's json reads the integer exactly and IntegerField's max_value refuses it; the stub's number is Infinity, \"A valid integer is required.\"",
});

describe("the desk serializer's validation, as the reference deployment answers (recorded in ../recorded/drf/serializers.json)", () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
  it.each(differing)('%s: still a known difference', async (_name, given, want) =>
    expect(await replay(given)).not.toEqual(want),
  );
});
