import { generateSync, type JsonSchema } from 'json-schema-faker';
import { describe, expect, it } from 'vitest';
import { generationOptions, generationSchema } from '../../../src/load/finite-schema.js';

// An item as a designer declares it: DRF's CharField refuses "" unless the schema allows blank.
const DOC = {
  components: {
    schemas: {
      Employee: {
        type: 'object',
        required: ['name', 'nickname', 'code', 'team'],
        properties: {
          name: { type: 'string', maxLength: 3 },
          nickname: { type: 'string', minLength: 0, maxLength: 3 },
          code: { type: 'string', pattern: '^[A-Z]{2}$' },
          team: { $ref: '#/components/schemas/Team' },
          tags: { type: 'array', items: { type: 'string', maxLength: 2 } },
        },
      },
      Team: {
        type: 'object',
        required: ['title'],
        properties: { title: { type: ['string', 'null'], maxLength: 2 } },
      },
    },
  },
};

function generate(count: number) {
  const item = generationSchema(DOC, '#/components/schemas/Employee');
  const schema = { type: 'array', minItems: count, maxItems: count, items: item.schema } as JsonSchema;
  return generateSync(schema, generationOptions(DOC, 7, item.finite)) as {
    name: string;
    nickname: string;
    code: string;
    team: { title: string | null };
    tags?: string[];
  }[];
}

describe('generated data keeps the rules the stub’s own writes apply', () => {
  const items = generate(300);

  it('a string without minLength is never blank (a CharField refuses "")', () => {
    expect(items).toHaveLength(300);
    expect(items.filter((e) => e.name === '')).toEqual([]);
    expect(items.filter((e) => e.team.title === '')).toEqual([]);
    expect(items.flatMap((e) => e.tags ?? []).filter((t) => t === '')).toEqual([]);
  });

  it('what the schema says of its own is kept: minLength 0 may be blank, a pattern is followed', () => {
    for (const e of items) {
      expect(e.name.length).toBeLessThanOrEqual(3);
      expect(e.code).toMatch(/^[A-Z]{2}$/);
      expect(e.nickname.length).toBeLessThanOrEqual(3);
    }
  });

  it('the same seed, the same items', () => {
    expect(generate(300)).toEqual(items);
  });
});
