import { escapeToken } from '../openapi/pointer.js';
import type { LoadProblem } from './errors.js';
import type { Model } from '../core/model.js';
import { successSource } from '../core/stub/declared.js';
import type { Handlers } from '../core/stub/handler-types.js';

/**
 * What the designer should know about the declared routes at start-up: a path no request can
 * reach (a route Django tries first matches every URL of it), and an operation that only data
 * generated from its schema can answer (no handler, fixture or example).
 */
export function routeWarnings(model: Model, handlers: Handlers | undefined, specFile: string): LoadProblem[] {
  const warnings: LoadProblem[] = [];
  for (const route of model.operations.routes) {
    // A URL of this path alone: each `{param}` a value no literal segment takes.
    const sample = route.path.replace(/\{[^}]+\}/g, (_, i: number) => `x${i}7q`);
    const match = model.router.match(sample);
    const first = [...route.methods.values()][0];
    if (first !== undefined && match !== undefined && (match.kind === 'root' || match.route !== route)) {
      const by = match.kind === 'root' ? `the API root at ${match.root.prefix}` : match.route.path;
      warnings.push({
        file: specFile,
        pointer: `/paths/${escapeToken(route.path)}`,
        reason: `${route.path} is never reached: ${by}, declared before it, matches the same URLs (Django tries the first pattern that matches)`,
      });
    }
    for (const [method, op] of route.methods) {
      if (op.kind !== 'custom' || op.djangoView || handlers?.[op.operationId] !== undefined) continue;
      if (successSource(op, model) === 'generated')
        warnings.push({
          file: specFile,
          pointer: op.pointer.slice(1),
          reason: `${op.operationId} (${method} ${route.path}) is answered with data generated from its schema: give it a handler, an x-stub-fixture or an example for a realistic answer`,
        });
    }
  }
  return warnings;
}
