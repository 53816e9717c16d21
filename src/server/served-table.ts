import type { Handlers } from '../core/stub/handler-types.js';
import { operationSources } from '../core/stub/declared.js';
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
  return table(['collection', 'items from', 'count', 'methods', 'item methods', 'parameters'], rows, 2);
}

/**
 * The operations answered otherwise than by the collection rules (actions, views) or by a
 * handler first: where each answer comes from (docs/response-selection.md).
 */
export function answersTable(state: StubState, handlers: Handlers | undefined): string[] {
  const name = (source: string, fixture: string | undefined) =>
    fixture === undefined ? source : `${source} ${fixture}`;
  const rows = operationSources(state.model, handlers)
    .filter((r) => r.source !== 'collection')
    .map((r) => [
      `${r.method} ${r.path}`,
      r.operationId,
      r.otherwise === undefined ? name(r.source, r.fixture) : `handler, else ${name(r.otherwise, r.fixture)}`,
    ]);
  return rows.length === 0 ? [] : table(['operation', 'operationId', 'answered by'], rows);
}

function table(head: string[], rows: string[][], rightAligned = -1): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === rightAligned ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return [line(head), ...rows.map(line)];
}
