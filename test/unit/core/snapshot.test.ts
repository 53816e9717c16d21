import { describe, expect, it } from 'vitest';
import { asSnapshot, SNAPSHOT_FORMAT } from '../../../src/core/snapshot.js';

const good = { format: SNAPSHOT_FORMAT, spec: {}, collections: { '/a': { items: [] } }, generatedBodies: {} };

describe('a value that claims to be a snapshot', () => {
  it('is the value itself when it is one', () => {
    expect(asSnapshot(good)).toBe(good);
    expect(SNAPSHOT_FORMAT).toBe('workplace-admin-stub/snapshot@1');
  });

  it.each<[string, unknown, string]>([
    ['null', null, 'a stub snapshot is a JSON object'],
    ['a string', 'snapshot', 'a stub snapshot is a JSON object'],
    [
      'no format',
      { spec: {}, collections: {} },
      'not a stub snapshot of format workplace-admin-stub/snapshot@1 (format: undefined); make it again with `workplace-stub snapshot`',
    ],
    [
      'another version',
      { ...good, format: 'workplace-admin-stub/snapshot@2' },
      'not a stub snapshot of format workplace-admin-stub/snapshot@1 (format: "workplace-admin-stub/snapshot@2"); make it again with `workplace-stub snapshot`',
    ],
    ['no spec', { ...good, spec: null }, 'a stub snapshot has a spec and collections'],
    ['collections not an object', { ...good, collections: 3 }, 'a stub snapshot has a spec and collections'],
    [
      'a collection without items',
      { ...good, collections: { '/a/b': {} } },
      'snapshot collection /a/b has no items array',
    ],
    [
      'a collection that is null',
      { ...good, collections: { '/x': null } },
      'snapshot collection /x has no items array',
    ],
    [
      'items not an array',
      { ...good, collections: { '/x': { items: {} } } },
      'snapshot collection /x has no items array',
    ],
  ])('is refused: %s', (_name, value, message) => {
    expect(() => asSnapshot(value)).toThrow(new TypeError(message));
  });
});
