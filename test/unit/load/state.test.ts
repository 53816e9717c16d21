import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadState, type StubState } from '../../../src/load/state.js';
import type { StoredDesk } from '../../../src/types.js';
import { SPEC } from '../../helpers.js';

const desks: StoredDesk[] = Array.from({ length: 300 }, (_, i) => ({
  pk: i + 1,
  building: i % 2 === 0 ? 'S' : 'P',
  floor: 1 + (i % 5),
  number: `${100 + i}`,
  active: i % 3 !== 0,
  lead: i % 7 === 0,
  ergonomic: i % 2 === 0,
  held_today: i % 5 === 0,
}));

const itemsOf = (state: StubState) => state.model.collections.get('/api/v1/desk')?.items.items;
const json = (state: StubState) => Array.from(itemsOf(state) ?? [], (i) => i.json);
/** How many of the reloaded items are the very items of the state before (taken over, not made again). */
const kept = (reloaded: StubState, before: StubState) => {
  const was = new Set(itemsOf(before));
  return (itemsOf(reloaded) ?? []).filter((item) => was.has(item)).length;
};

describe('a reload takes over the items that did not change, and gives what a fresh load gives', () => {
  // An item whose text is the one at its place before is taken over (no check, no new copy).
  it.each<[string, (d: StoredDesk[]) => StoredDesk[], boolean, number]>([
    ['nothing changed', (d) => d, true, 300],
    ['the first item edited', (d) => d.map((x, i) => (i === 0 ? { ...x, building: 'P' as const } : x)), true, 299],
    ['an item added at the end', (d) => [...d, { ...(d[0] as StoredDesk), pk: 1000 }], true, 300],
    ['the first item removed (a shift)', (d) => d.slice(1), true, 0],
    ['two items swapped', (d) => [d[1] as StoredDesk, d[0] as StoredDesk, ...d.slice(2)], true, 298],
    // Parsed (not canonical text), then taken over where its JSON is the same.
    ['pretty-printed (parsed, then taken over where equal)', (d) => d, false, 300],
  ])('%s', async (_name, edit, compact, keeps) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-'));
    const file = path.join(dir, 'desk.json');
    const opts = { specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 };
    await writeFile(file, JSON.stringify(desks));
    const before = await loadState(opts);
    await writeFile(file, compact ? JSON.stringify(edit(desks)) : JSON.stringify(edit(desks), null, 2));
    const reloaded = await loadState({ ...opts, previous: before });
    const fresh = await loadState(opts);
    expect(json(reloaded)).toEqual(json(fresh));
    expect(kept(reloaded, before)).toBe(keeps);
    // Lookups by pk still find every item.
    for (const item of itemsOf(reloaded) ?? [])
      expect(reloaded.model.collections.get('/api/v1/desk')?.items.byPk.get(item.pk ?? '')).toBe(item);
  });

  it('a repeated pk is still refused when the items around it are taken over', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-'));
    const file = path.join(dir, 'desk.json');
    const opts = { specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 };
    await writeFile(file, JSON.stringify(desks));
    const before = await loadState(opts);
    await writeFile(file, JSON.stringify([...desks, desks[10]]));
    await expect(loadState({ ...opts, previous: before })).rejects.toThrow(
      /at line \d+:\d+ \(\/300\/pk\): repeats pk 11 of item 10/,
    );
  });

  it('an item edited to what the model refuses (a building other than S or P) is refused, its neighbours taken over', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-'));
    const file = path.join(dir, 'desk.json');
    const opts = { specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 };
    await writeFile(file, JSON.stringify(desks));
    const before = await loadState(opts);
    await writeFile(file, JSON.stringify(desks.map((x, i) => (i === 150 ? { ...x, building: 'Z' } : x))));
    await expect(loadState({ ...opts, previous: before })).rejects.toThrow(
      /at line \d+:\d+ \(\/150\/building\): must be equal to one of the allowed values: \["S","P"\]/,
    );
  });
});

describe('a reload of a large fixture (items read from their bytes) keeps the items that did not change', () => {
  // One desk per line (~1.3 MB, many chunks): most are read the flat way (src/load/flat-items.ts).
  const BLOCK = 4096;
  const count = 3 * BLOCK + 100;
  const many: StoredDesk[] = Array.from({ length: count }, (_, i) => ({
    ...(desks[i % desks.length] as StoredDesk),
    pk: i + 1,
    number: `${100 + i}`,
  }));
  const lines = (d: StoredDesk[]) => `[\n${d.map((x) => JSON.stringify(x)).join(',\n')}\n]\n`;
  it.each<[string, (d: StoredDesk[]) => StoredDesk[], number]>([
    ['nothing changed', (d) => d, count],
    [
      'two items edited, one near the start, one further on',
      (d) => d.map((x, i) => (i === 5 || i === 2 * BLOCK + 9 ? { ...x, floor: 42 } : x)),
      count - 2,
    ],
    ['an item edited near the end', (d) => d.map((x, i) => (i === count - 3 ? { ...x, floor: 42 } : x)), count - 1],
    ['an item removed (a shift after it)', (d) => [...d.slice(0, BLOCK + 10), ...d.slice(BLOCK + 11)], BLOCK + 10],
  ])('%s', async (_name, edit, keeps) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-many-'));
    const file = path.join(dir, 'desk.json');
    const opts = { specFile: SPEC, fixturesDir: dir, seed: 1, defaultGenerateCount: 25 };
    await writeFile(file, lines(many));
    const before = await loadState(opts);
    await writeFile(file, lines(edit(many)));
    const reloaded = await loadState({ ...opts, previous: before });
    expect(json(reloaded)).toEqual(json(await loadState(opts)));
    expect(kept(reloaded, before)).toBe(keeps);
  });
});
