import { describe, expect, it } from 'vitest';
import { withIndent } from '../../../../src/core/drf/renderers.js';
import { recordedTable } from '../recorded/recording.js';

const { cases, replay } = recordedTable('drf/renderers.json');

describe('JSON rendering, as the reference deployment answers (recorded in ../recorded/drf/renderers.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});

describe('withIndent: a rendered body indented on request', () => {
  // CPython 3.11: json.dumps(value, indent=N, separators=(",", ": "), ensure_ascii=False) with
  // JSONRenderer's two replaces, recorded (the reference's desks hold no float).
  it.each<[string, string, number | undefined, string]>([
    ['no indent asked: as it is', '{"a":1e-05}', undefined, '{"a":1e-05}'],
    [
      'floats below 1e-4 as Python writes them',
      '{"a":1e-05,"b":[1.5e-07]}',
      2,
      '{\n  "a": 1e-05,\n  "b": [\n    1.5e-07\n  ]\n}',
    ],
    ['U+2028 escaped again', '"x\\u2028"', 4, '"x\\u2028"'],
    ['an empty body', '', 4, ''],
  ])('%s', (_name, body, indent, want) => {
    expect(withIndent(body, indent)).toBe(want);
  });
});
