import { describe, expect, it } from 'vitest';
import { formatProblem, LoadError, type LoadProblem } from '../../../src/load/errors.js';
import { formatProblem as bottomFormat } from '../../../src/openapi/problem.js';

describe('LoadError: every problem of a load, not the first', () => {
  const problems: LoadProblem[] = [
    { file: 'openapi.yaml', pointer: '/paths', reason: 'first' },
    { file: 'fixtures/desk.json', pointer: '/3/pk', reason: 'second', line: 4, column: 9 },
    { file: 'fixtures/room.json', pointer: '', reason: 'third' },
  ];

  it('holds the problems, and says each on a line of its message', () => {
    const e = new LoadError(problems);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('LoadError');
    expect(e.problems).toBe(problems);
    expect(e.message.split('\n')).toEqual([
      'openapi.yaml at /paths: first',
      'fixtures/desk.json at line 4:9 (/3/pk): second',
      'fixtures/room.json: third',
    ]);
  });

  it('formatProblem is the bottom layer’s', () => {
    expect(formatProblem).toBe(bottomFormat);
  });
});
