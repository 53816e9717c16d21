import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  bounded,
  bytes,
  checkBaseUrl,
  collect,
  list,
  parseHeaders,
  SETTINGS,
} from '../../../src/cli/contract-options.js';

/** What a parser answers, or the message it throws. */
const outcome = (f: () => unknown): unknown => {
  try {
    return f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidArgumentError);
    return (e as Error).message;
  }
};

describe('the parsers of the options', () => {
  it.each<[string, unknown]>([
    ['5', 5],
    ['1', 1],
    ['10', 10],
    ['0', 'must be from 1 to 10 ms.'],
    ['11', 'must be from 1 to 10 ms.'],
    ['1.5', 'not a whole number.'],
    ['-1', 'not a whole number.'],
    ['', 'not a whole number.'],
  ])('bounded(1, 10, " ms")(%j): %j', (value, want) => {
    expect(outcome(() => bounded(1, 10, ' ms')(value))).toEqual(want);
  });

  it.each<[string, unknown]>([
    ['1048576', 1_048_576],
    ['512k', 512 * 1024],
    ['16m', 16 * 2 ** 20],
    ['16MiB', 16 * 2 ** 20],
    [' 2kb ', 2048],
    ['1024', 1024],
    ['1023', 'must be from 1k to 512m.'],
    ['1g', 'must be from 1k to 512m.'],
    ['16 m', 'a size in bytes, such as 1048576, 512k or 16m.'],
    ['lots', 'a size in bytes, such as 1048576, 512k or 16m.'],
  ])('bytes(%j): %j', (value, want) => {
    expect(outcome(() => bytes(value))).toEqual(want);
  });

  it('list and collect', () => {
    expect(list(' desk, ,employee,')).toEqual(['desk', 'employee']);
    expect(collect('b', collect('a'))).toEqual(['a', 'b']);
  });

  it.each<[string[], ReturnType<typeof parseHeaders>]>([
    [['Authorization: Token  abc ', 'X-A:1:2'], { ok: true, headers: { authorization: 'Token  abc', 'x-a': '1:2' } }],
    [[], { ok: true, headers: {} }],
    [
      ['no colon'],
      { ok: false, error: '--header takes "Name: value" (got a value without a header name before a colon)' },
    ],
    [
      [': value'],
      { ok: false, error: '--header takes "Name: value" (got a value without a header name before a colon)' },
    ],
    [
      ['bad name: v'],
      { ok: false, error: '--header takes "Name: value" (got a value without a header name before a colon)' },
    ],
    [['X-A: a\nX-B: b'], { ok: false, error: '--header x-a: a value cannot hold a line break or NUL' }],
    [['Host: evil'], { ok: false, error: "--header host: set by the checker itself (the Host is the base URL's)" }],
    [
      ['Transfer-Encoding: chunked'],
      { ok: false, error: "--header transfer-encoding: set by the checker itself (the Host is the base URL's)" },
    ],
  ])('parseHeaders(%j)', (values, want) => {
    expect(parseHeaders(values)).toEqual(want);
  });

  it.each<[string, string | undefined]>([
    ['https://staging.example.org', undefined],
    ['https://staging.example.org/workplace/', undefined],
    ['staging.example.org', '--base-url must be an absolute http(s) URL, such as https://staging.example.org'],
    ['ftp://h', '--base-url must be an http(s) URL (got ftp:)'],
    ['https://h/?a=1', "--base-url takes the deployment's root, without a query or fragment"],
    ['https://h/#x', "--base-url takes the deployment's root, without a query or fragment"],
    [
      'https://h/workplace/api/v1/',
      "--base-url is the deployment's root, without /api/v1 (the collections are at {base_url}/api/v1/…): try --base-url https://h/workplace",
    ],
  ])('checkBaseUrl(%s)', (value, error) => {
    expect(checkBaseUrl(value, '--base-url')).toBe(error);
  });

  it('checkBaseUrl suggests the root in the words of where it was given', () => {
    const error = checkBaseUrl(
      'https://h/api/v1',
      'WORKPLACE_STUB_BASE_URL',
      (root) => `WORKPLACE_STUB_BASE_URL=${root}`,
    );
    expect(error?.endsWith('try WORKPLACE_STUB_BASE_URL=https://h')).toBe(true);
  });
});

describe('SETTINGS: every option of check, proxy and record in one table', () => {
  it('one setting of a key, a flag, a variable per command; every flag long; every variable WORKPLACE_STUB_*', () => {
    for (const command of ['check', 'proxy', 'record'] as const) {
      const settings = SETTINGS.filter((s) => s.commands.includes(command));
      for (const name of ['key', 'flag', 'env'] as const) {
        const values = settings.map((s) => s[name]).filter((v) => v !== undefined);
        expect(new Set(values).size, `${command} ${name}`).toBe(values.length);
      }
    }
    for (const s of SETTINGS) {
      expect(s.flag).toMatch(/(^|, )--[a-z][a-z0-9-]*( <[a-z]+>)?$/);
      if (s.env) expect(s.env).toMatch(/^WORKPLACE_STUB_[A-Z_]+$/);
      if (s.choices) expect(s.choices).toContain(s.default);
      if (s.required) expect(s.default).toBeUndefined();
    }
  });

  it.each(SETTINGS.filter((s) => s.parse && typeof s.default === 'number').map((s) => [s.key, s] as const))(
    '%s: its default is a value its parser takes',
    (_key, s) => {
      expect(s.parse?.(String(s.default))).toBe(s.default);
    },
  );
});
