import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { badArgument, prepareReportFile, reason, writeJunit, writeReportFile } from '../../../src/cli/report-files.js';
import { catchOutput, io } from './io.js';

const dir = await mkdtemp(path.join(tmpdir(), 'report-files-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('prepareReportFile: a report can go there, checked at start', () => {
  it('makes its folder', async () => {
    const file = path.join(dir, 'reports', 'ci', 'junit.xml');
    expect(await prepareReportFile(file)).toBeUndefined();
    await writeFile(file, 'x');
  });

  it.each<[string, () => Promise<string>, RegExp]>([
    [
      'a folder is no file',
      async () => (await mkdir(path.join(dir, 'taken'), { recursive: true }), path.join(dir, 'taken')),
      /taken is a folder$/,
    ],
    [
      'a folder that cannot be made',
      async () => (await writeFile(path.join(dir, 'plain'), ''), path.join(dir, 'plain', 'junit.xml')),
      /^cannot create the folder of .*plain\/junit\.xml \((?:EEXIST|ENOTDIR)\)$/,
    ],
  ])('%s', async (_name, file, why) => {
    expect(await prepareReportFile(await file())).toMatch(why);
  });
});

describe('writeReportFile', () => {
  it('writes the report, its folder made', async () => {
    const file = path.join(dir, 'new', 'report.json');
    await writeReportFile(file, '{}\n');
    expect(await readFile(file, 'utf8')).toBe('{}\n');
  });

  it('throws what the file system says', async () => {
    await expect(writeReportFile(path.join(dir, 'taken'), 'x')).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('writeJunit: the report at the end of a run, or why not', () => {
  catchOutput();
  it('writes it and answers true', async () => {
    const file = path.join(dir, 'end', 'junit.xml');
    expect(await writeJunit(file, '<testsuites/>\n', 'the checker')).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('<testsuites/>\n');
    expect(io.err).toBe('');
  });

  it('answers false and says who failed, control characters escaped', async () => {
    const file = path.join(dir, 'a\u001b[2Jfolder');
    await mkdir(file);
    expect(await writeJunit(file, 'x', 'the proxy')).toBe(false);
    expect(io.err).toMatch(
      /^error: the proxy failed: cannot write the JUnit report to .*a\\u001b\[2Jfolder: .*EISDIR.*\n$/,
    );
  });
});

describe('reason: one line from anything thrown', () => {
  it.each<[string, unknown, string]>([
    ['an error and its code', Object.assign(new Error('open failed'), { code: 'EACCES' }), 'open failed (EACCES)'],
    [
      'a code already in the message',
      Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }),
      'EACCES: permission denied',
    ],
    ['the first line only', new Error('first\nsecond'), 'first'],
    ['not an error', 42, '42'],
  ])('%s', (_name, e, want) => {
    expect(reason(e)).toBe(want);
  });
});

describe('badArgument: one line on stderr, exit code 2', () => {
  catchOutput();
  it('escapes what a terminal would act on', () => {
    expect(badArgument('--only \u001b[2Jdesk: no such collection')).toBe(2);
    expect(io.err).toBe('error: --only \\u001b[2Jdesk: no such collection\n');
  });
});
