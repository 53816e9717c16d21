import path from 'node:path';
import type { CollectionModel, Model } from '../core/model.js';
import { count } from '../openapi/words.js';
import { rel } from './paths.js';

/**
 * What a reload changed in what is served, in one line, after the files that changed:
 * `reloaded fixtures/desk.json: desk.json 192 → 193 items; +1 operation createThing`. The whole
 * table was printed at start-up; a reload tells only its difference.
 */
export function reloadSummary(before: Model, next: Model, changed: readonly string[], rootFile: string): string {
  const files = changed.length > 0 ? changed.map(rel).join(', ') : rel(rootFile);
  const parts = [...collectionChanges(before, next), ...operationChanges(before, next)];
  return `reloaded ${files}: ${parts.length > 0 ? parts.join('; ') : 'nothing served changed'}`;
}

function collectionChanges(before: Model, next: Model): string[] {
  const out: string[] = [];
  const added = [...next.collections.keys()].filter((p) => !before.collections.has(p));
  const removed = [...before.collections.keys()].filter((p) => !next.collections.has(p));
  if (added.length > 0) out.push(`+${count(added.length, 'collection')} ${added.join(', ')}`);
  if (removed.length > 0) out.push(`−${count(removed.length, 'collection')} ${removed.join(', ')}`);
  for (const [p, now] of next.collections) {
    const was = before.collections.get(p);
    if (!was) continue;
    if (was.source !== now.source || was.from !== now.from)
      out.push(`${p}: ${origin(was)}, ${count(was.count, 'item')} → ${origin(now)}, ${count(now.count, 'item')}`);
    else if (was.count !== now.count) out.push(`${name(now)} ${was.count} → ${count(now.count, 'item')}`);
  }
  return out;
}

/** A collection by the file its items come from, else by its path. */
function name(c: CollectionModel): string {
  return c.source === 'fixture' ? path.basename(c.from) : c.list.path;
}

function origin(c: CollectionModel): string {
  return c.source === 'fixture' ? `fixture ${path.basename(c.from)}` : c.source;
}

function operationChanges(before: Model, next: Model): string[] {
  const was = operationIds(before);
  const now = operationIds(next);
  const added = [...now].filter((id) => !was.has(id));
  const removed = [...was].filter((id) => !now.has(id));
  return [
    ...(added.length > 0 ? [`+${count(added.length, 'operation')} ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`−${count(removed.length, 'operation')} ${removed.join(', ')}`] : []),
  ];
}

function operationIds(model: Model): Set<string> {
  const ids = new Set<string>();
  for (const route of model.operations.routes) for (const op of route.methods.values()) ids.add(op.operationId);
  return ids;
}
