import { describe, expect, it } from 'vitest';
import { parseBaseUrl } from '../../../../src/adapters/internal/base-url.js';

describe('parseBaseUrl: a baseUrl checked as the server checks --base-url', () => {
  it.each<[string | undefined, ReturnType<typeof parseBaseUrl>]>([
    [undefined, undefined],
    [
      'https://staging.example.org',
      { url: 'https://staging.example.org', origin: 'https://staging.example.org', path: '' },
    ],
    [
      'https://Staging.Example.org:443/workplace//',
      { url: 'https://staging.example.org/workplace', origin: 'https://staging.example.org', path: '/workplace' },
    ],
    ['http://127.0.0.1:8000/a/b/', { url: 'http://127.0.0.1:8000/a/b', origin: 'http://127.0.0.1:8000', path: '/a/b' }],
  ])('%s', (raw, want) => {
    expect(parseBaseUrl(raw)).toEqual(want);
  });

  it.each(['not a url', '/relative', 'ftp://h', 'https://h/?q=1', 'https://h/#top', 'https://u:p@h/', 'https://u@h/'])(
    'refuses %s',
    (raw) => {
      expect(() => parseBaseUrl(raw)).toThrow(
        new TypeError(
          `baseUrl must be an absolute http(s) URL without query, fragment or credentials (got ${JSON.stringify(raw)})`,
        ),
      );
    },
  );
});
