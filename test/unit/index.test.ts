import { describe, expect, it } from 'vitest';
import { BUNDLED_SNAPSHOT_JSON } from '../../src/generated/bundled-snapshot.js';
import * as entry from '../../src/index.js';
import type { Desk, DeskList, StoredDesk } from '../../src/index.js';

describe("workplace-admin-stub: the package's entry", () => {
  it('exports exactly the isomorphic core (its types are types alone)', () => {
    expect(Object.keys(entry).sort()).toEqual(['SNAPSHOT_FORMAT', 'StubCore', 'asSnapshot', 'compileSnapshot']);
    expect(entry.SNAPSHOT_FORMAT).toBe('workplace-admin-stub/snapshot@1');
  });

  it('a snapshot checked, compiled and answered from, with no Node API; the answer is the exported types’ shape', async () => {
    const core = new entry.StubCore(entry.compileSnapshot(entry.asSnapshot(JSON.parse(BUNDLED_SNAPSHOT_JSON))), {
      pageSize: 2,
      trustProxy: false,
      allowedHosts: ['*'],
      fallbackHost: 'localhost',
      maxDelayMs: 0,
      cors: { mode: 'off' },
    });
    const answer = await core.answer({
      method: 'GET',
      url: '/api/v1/desk?format=api',
      header: (n) => (n === 'host' ? 'app.test' : undefined),
    });
    expect(answer.status).toBe(200);
    const page = JSON.parse(answer.body) as DeskList;
    const desk: Desk | undefined = page.results[0];
    const { url, ...stored }: Desk = desk as Desk;
    const kept: StoredDesk = stored;
    expect(url).toBe(`http://app.test/api/v1/desk/${kept.pk}?format=api`);
    expect(page.results).toHaveLength(2);
    expect(() => entry.asSnapshot({ format: 'other' })).toThrow();
  });
});
