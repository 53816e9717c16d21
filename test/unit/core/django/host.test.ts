import { describe, expect, it } from 'vitest';
import { fixedBase } from '../../../../src/core/django/host.js';
import { recordedTable } from '../recorded/recording.js';

const { cases, replay } = recordedTable('django/host.json');

describe('the Host header and ALLOWED_HOSTS, as the reference deployment answers (recorded in ../recorded/django/host.json)', () => {
  it.each(cases)('%s', async (_name, given, want) => expect(await replay(given)).toEqual(want));
});

describe("fixedBase: the stub's own fixed base URL (--base-url, an adapter's baseUrl)", () => {
  it.each<[string, ReturnType<typeof fixedBase>]>([
    [
      'https://Staging.Example.org:443/workplace//',
      {
        url: 'https://staging.example.org/workplace',
        origin: 'https://staging.example.org',
        path: '/workplace',
      },
    ],
    ['http://127.0.0.1:8000', { url: 'http://127.0.0.1:8000', origin: 'http://127.0.0.1:8000', path: '' }],
    ['/relative', undefined],
    ['ftp://h', undefined],
    ['https://h/?q=1', undefined],
    ['https://h/#top', undefined],
    ['https://u@h/', undefined],
  ])('%s', (raw, want) => expect(fixedBase(raw)).toEqual(want));
});
