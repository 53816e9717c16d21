import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE, SESSION_HEADER, Sessions } from '../../../../src/core/stub/sessions.js';

const sessions = (max = 2, idleMs = 1000, journalSize = 5) => new Sessions<string>({ max, idleMs, journalSize });
const NAME_RULE = 'a session name is 1 to 64 letters, digits, ".", "_" or "-"';

describe('sessions by name', () => {
  it('the header and its cookie', () => {
    expect([SESSION_HEADER, SESSION_COOKIE]).toEqual(['x-stub-session', 'X-Stub-Session']);
  });

  it('no name: the shared state, never counted, never dropped', () => {
    const s = sessions(1);
    const shared = s.get(undefined, 0);
    expect(shared).toEqual({ ok: true, state: s.shared, name: undefined });
    expect(s.get(undefined, 10_000_000)).toEqual(shared);
    expect(s.names).toEqual([]);
    expect([s.shared.journal.capacity, s.shared.scenarios.size, s.shared.live.size]).toEqual([5, 0, 0]);
  });

  it.each<[string, boolean]>([
    ['a', true],
    ['test-1_run.2', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['', false],
    ['a b', false],
    ['a/b', false],
    ['é', false],
    ['a\n', false],
  ])('the name %j: %s', (name, ok) => {
    const r = sessions().get(name, 0);
    expect(r.ok ? 'ok' : [r.status, r.detail]).toEqual(ok ? 'ok' : [400, NAME_RULE]);
  });

  it('each name its own state, made on first use, the same after', () => {
    const s = sessions();
    const a = s.get('a', 0);
    const b = s.get('b', 0);
    if (!a.ok || !b.ok) throw new Error('refused');
    expect(a.state).not.toBe(b.state);
    expect(a.state).not.toBe(s.shared);
    expect(a.state.journal).not.toBe(b.state.journal);
    expect(s.get('a', 5)).toEqual({ ok: true, state: a.state, name: 'a' });
    expect(a.state.lastUsed).toBe(5);
    expect(s.names).toEqual(['a', 'b']);
  });

  it.each<[number, string]>([
    [
      1,
      '1 session is open already (the --max-sessions bound): reset one (POST /__stub/reset with its x-stub-session) or wait for one to be idle 90 s',
    ],
    [
      2,
      '2 sessions are open already (the --max-sessions bound): reset one (POST /__stub/reset with its x-stub-session) or wait for one to be idle 90 s',
    ],
  ])('past %i sessions, a 503 that says what to do', (max, detail) => {
    const s = sessions(max, 90_000);
    for (let i = 0; i < max; i++) expect(s.get(`s${i}`, 0).ok).toBe(true);
    expect(s.get('one-more', 0)).toEqual({ ok: false, status: 503, detail });
    // Those open still are.
    expect(s.get('s0', 0).ok).toBe(true);
  });

  it('a session idle longer than idleMs is dropped: its name starts again, its place is free', () => {
    const s = sessions(2, 1000);
    const first = s.get('a', 0);
    s.get('b', 500);
    expect(s.get('c', 1000).ok).toBe(false);
    // At 1001, a has been idle 1001 ms: gone; b (idle 501 ms) stays.
    const c = s.get('c', 1001);
    expect(c.ok).toBe(true);
    expect(s.names).toEqual(['b', 'c']);
    const again = s.get('a', 1400);
    expect(again.ok).toBe(false);
    const later = s.get('a', 2002);
    expect(later.ok && first.ok && later.state !== first.state).toBe(true);
  });

  it('drop: the next request of that name starts from a fresh state', () => {
    const s = sessions();
    const a = s.get('a', 0);
    s.drop('a');
    s.drop('never');
    expect(s.names).toEqual([]);
    const b = s.get('a', 0);
    expect(a.ok && b.ok && a.state !== b.state).toBe(true);
  });
});
