import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rel } from '../../../src/load/paths.js';

describe('rel: a path as messages show it', () => {
  const cwd = process.cwd();
  it.each<[string, string, string]>([
    [
      'inside the working folder: relative',
      path.join(cwd, 'openapi', 'openapi.yaml'),
      path.join('openapi', 'openapi.yaml'),
    ],
    ['the working folder itself: empty', cwd, ''],
    [
      'outside it: as given',
      path.join(path.dirname(cwd), 'elsewhere.yaml'),
      path.join(path.dirname(cwd), 'elsewhere.yaml'),
    ],
    ['a root elsewhere: as given', '/tmp/x/desk.json', '/tmp/x/desk.json'],
  ])('%s', (_name, file, want) => {
    expect(rel(file)).toBe(want);
  });
});
