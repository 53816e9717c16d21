import { describe, expect, it } from 'vitest';
import { formatProblem, type LoadProblem } from '../../../src/openapi/problem.js';

describe('formatProblem: file, place and reason in one line', () => {
  it.each<[string, LoadProblem, string]>([
    [
      'a pointer',
      { file: 'openapi.yaml', pointer: '/paths/~1a/get', reason: 'bad' },
      'openapi.yaml at /paths/~1a/get: bad',
    ],
    [
      'no pointer: the whole file',
      { file: 'fixtures/desk.json', pointer: '', reason: 'no such file' },
      'fixtures/desk.json: no such file',
    ],
    ['a line:col place (a parse error)', { file: 'a.yaml', pointer: 'line 3:7', reason: 'x' }, 'a.yaml at line 3:7: x'],
    [
      'a pointer placed on its line',
      { file: 'a.yaml', pointer: '/info', reason: 'x', line: 2, column: 5 },
      'a.yaml at line 2:5 (/info): x',
    ],
    [
      'a line without its column: column 1',
      { file: 'a.yaml', pointer: '/info', reason: 'x', line: 2 },
      'a.yaml at line 2:1 (/info): x',
    ],
    ['a line, no pointer', { file: 'a.json', pointer: '', reason: 'x', line: 9, column: 1 }, 'a.json at line 9:1: x'],
  ])('%s', (_name, given, want) => {
    expect(formatProblem(given)).toBe(want);
  });
});
