import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKeys } from '../../../src/load/keys.js';
import { parseError } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keys-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The problems of `text` as a keys file, as `place: reason`, and the keys read. */
async function keysOf(text: string) {
  const file = path.join(dir, 'tokens.json');
  await writeFile(file, text);
  const { keys, problems } = await loadKeys(file);
  expect(problems.every((p) => p.file === file)).toBe(true);
  return { keys: [...keys], problems: problems.map((p) => `${p.pointer}: ${p.reason}`) };
}

describe('loadKeys: the token or session keys of a JSON array, or why not', () => {
  it.each<[string, string, string[], string[]]>([
    ['keys', '["9944b091", "abc"]', ['9944b091', 'abc'], []],
    ['none', '[]', [], []],
    ['the same key twice: once', '["a", "a"]', ['a'], []],
    [
      'not an array',
      '{"a": 1}',
      [],
      [': must be a JSON array of token keys, such as ["9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"]'],
    ],
    [
      'a key that is no string, empty, or holds white space: each told at its index',
      '["ok", 5, "", "a b", "tab\\t"]',
      ['ok', '', 'a b', 'tab\t'],
      [
        '/1: a key is a string without white space',
        '/2: a key is a string without white space',
        '/3: a key is a string without white space',
        '/4: a key is a string without white space',
      ],
    ],
    // Placed where V8 says the position (after its words, which vary between versions of Node).
    ['invalid JSON, placed', '[\n  {"a": 1,}\n]', [], [`line 2:11: invalid JSON: ${parseError('[\n  {"a": 1,}\n]')}`]],
  ])('%s', async (_name, text, keys, problems) => {
    expect(await keysOf(text)).toEqual({ keys, problems });
  });

  it.each<[string, (dir: string) => string, string]>([
    ['a file that does not exist', (d) => path.join(d, 'absent.json'), ': no such file'],
    ['a folder', (d) => d, ': cannot be read'],
  ])('%s', async (_name, fileOf, problem) => {
    const { keys, problems } = await loadKeys(fileOf(dir));
    expect([...keys]).toEqual([]);
    expect(problems.map((p) => `${p.pointer}: ${p.reason}`)).toEqual([problem]);
  });
});
