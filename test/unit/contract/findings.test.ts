import { describe, expect, it } from 'vitest';
import { Findings, KEPT_PER_RULE } from '../../../src/contract/findings.js';
import { REDACTED, Redactor } from '../../../src/contract/redact.js';

const op = { operationId: 'listDesks', path: '/api/v1/desk' };

describe('Findings: violations made safe on the way in', () => {
  it('keeps a violation of its operation, or of the one named', () => {
    const f = new Findings(new Redactor([]), op);
    f.report('status', 'https://h/api/v1/desk', '', '200', '500: boom');
    f.report('schema', 'https://h/api/v1/desk/1', '/pk', 'integer', '"x"', {
      operationId: 'getDesk',
      path: '/api/v1/desk/{pk}',
    });
    expect(f.violations).toEqual([
      {
        endpoint: 'GET /api/v1/desk',
        operationId: 'listDesks',
        rule: 'status',
        url: 'https://h/api/v1/desk',
        pointer: '',
        expected: '200',
        found: '500: boom',
      },
      {
        endpoint: 'GET /api/v1/desk/{pk}',
        operationId: 'getDesk',
        rule: 'schema',
        url: 'https://h/api/v1/desk/1',
        pointer: '/pk',
        expected: 'integer',
        found: '"x"',
      },
    ]);
  });

  it('redacts secrets, escapes control characters and clips every part', () => {
    const f = new Findings(new Redactor(['tok-secret']), op);
    f.report('json', `https://h/?t=tok-secret${'u'.repeat(400)}`, '/a\nb', 'x'.repeat(400), 'tok-secret\u001b[2J');
    const [v] = f.violations;
    expect(v?.url.startsWith(`https://h/?t=${REDACTED}`)).toBe(true);
    expect(v?.url.length).toBe(301);
    expect(v?.pointer).toBe('/a\\nb');
    expect(v?.expected.length).toBe(301);
    expect(v?.found).toBe(`${REDACTED}\\u001b[2J`);
  });

  it(`keeps ${KEPT_PER_RULE} violations of a rule and counts the rest`, () => {
    const f = new Findings(new Redactor([]), op);
    for (let i = 0; i < KEPT_PER_RULE + 3; i++) f.report('schema', 'u', `/${i}`, 'e', 'f');
    f.report('status', 'u', '', 'e', 'f');
    expect(f.violations.filter((v) => v.rule === 'schema')).toHaveLength(KEPT_PER_RULE);
    expect(f.omitted).toEqual({ schema: 3 });
    expect([f.count('schema'), f.count('status'), f.count('json'), f.count()]).toEqual([
      KEPT_PER_RULE + 3,
      1,
      0,
      KEPT_PER_RULE + 4,
    ]);
  });
});
