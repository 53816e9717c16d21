import type { StubState } from '../load/state.js';

/**
 * What is served, one row per collection, for the designer at start-up and after each reload:
 * where its items come from, how many, the methods of its paths, its query parameters.
 */
export function servedTable(state: StubState): string[] {
  const rows = [...state.model.collections.values()].map((c) => {
    const methods = [...new Set([...c.route.methods.keys(), ...(c.itemRoute ? [...c.itemRoute.methods.keys()].map((m) => `${m} {}`) : [])])];
    const params = c.list.parameters.map((p) => p.name).filter((n) => n !== 'format' && n !== 'page');
    return [c.list.path, `${c.source}${c.source === 'fixture' ? ` ${c.from}` : ''}`, String(c.items.items.length), methods.join(' '), params.join(' ') || '-'];
  });
  const head = ['collection', 'items from', 'count', 'methods', 'parameters'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return [line(head), ...rows.map(line)];
}
