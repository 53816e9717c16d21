import type { StubState } from '../load/state.js';

/**
 * What is served, one row per collection, for the designer at start-up and after each reload:
 * where its items come from, how many, the methods of its paths, its query parameters.
 */
export function servedTable(state: StubState): string[] {
  const rows = [...state.model.collections.values()].map((c) => {
    const params = c.list.parameters.map((p) => p.name).filter((n) => n !== 'format' && n !== 'page');
    const item = c.itemRoute ? [...c.itemRoute.methods.keys()].join(' ') : '-';
    const from =
      c.source === 'fixture'
        ? `fixture ${c.from}`
        : c.source === 'generated'
          ? 'generated (on first request)'
          : c.source;
    return [c.list.path, from, String(c.count), [...c.route.methods.keys()].join(' '), item, params.join(' ') || '-'];
  });
  const head = ['collection', 'items from', 'count', 'methods', 'item methods', 'parameters'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return [line(head), ...rows.map(line)];
}
