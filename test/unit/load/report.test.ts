import { describe, expect, it, vi } from 'vitest';
import { LoadError, type LoadProblem } from '../../../src/load/errors.js';
import { formatWarnings, printLoadError } from '../../../src/load/report.js';

// NO_COLOR is set for the tests (vitest.config.ts): picocolors writes plain text.

const printed = (e: unknown) => {
  let out = '';
  printLoadError(e, (s) => (out += s));
  return out;
};
const item = (i: number): LoadProblem => ({
  file: 'fixtures/desk.json',
  pointer: `/${i}`,
  reason: 'must have required property "zone"',
});

describe('printLoadError: why nothing is served, one problem a line', () => {
  it.each<[string, unknown, string]>([
    [
      'a LoadError: each problem indented, the same over many items in one line',
      new LoadError([{ file: 'openapi.yaml', pointer: '/paths', reason: 'bad' }, item(0), item(1), item(2), item(3)]),
      'error: the spec or fixtures cannot be served:\n' +
        '  openapi.yaml at /paths: bad\n' +
        '  4 items of fixtures/desk.json lack `zone`: /0, /1, /2 … and 1 more\n',
    ],
    ['another error: its message', new Error('EACCES: permission denied'), 'error: EACCES: permission denied\n'],
    ['a thrown string', 'nope', 'error: nope\n'],
  ])('%s', (_name, e, want) => {
    expect(printed(e)).toBe(want);
  });

  it('to standard error unless told where', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      printLoadError(new Error('x'));
      expect(write.mock.calls).toEqual([['error: x\n']]);
    } finally {
      write.mockRestore();
    }
  });
});

describe('formatWarnings', () => {
  it('a line each, as formatProblem says it', () => {
    expect(
      formatWarnings([
        { file: 'openapi.yaml', pointer: '/components/schemas/A/format', reason: 'not checked', line: 3, column: 9 },
        { file: 'fixtures/old.json', pointer: '', reason: 'unused' },
      ]),
    ).toEqual([
      'warning: openapi.yaml at line 3:9 (/components/schemas/A/format): not checked',
      'warning: fixtures/old.json: unused',
    ]);
    expect(formatWarnings([])).toEqual([]);
  });
});
