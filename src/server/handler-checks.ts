import type { AnswerViolation, HandlerProblem } from '../core/request.js';
import { placeIn } from '../load/handlers.js';
import type { StubState } from '../load/state.js';
import { describeViolation } from '../openapi/ajv.js';
import type { AnyOperation } from '../openapi/operations.js';

/**
 * A handler's answer held to the spec, as the proxy holds a deployment's: its status must be
 * declared, and its body must be what that response's schema allows (the contract's Ajv).
 */
export function answerChecker(
  state: StubState,
): (op: AnyOperation, status: number, body: unknown) => AnswerViolation[] {
  return (op, status, body) => {
    const declared = op.responses[String(status)];
    if (declared === undefined)
      return [
        {
          pointer: '',
          message: `status ${status} is not declared (declared: ${Object.keys(op.responses).join(', ')})`,
        },
      ];
    if (declared.schemaPointer === undefined || body === undefined) return [];
    return state.ajv
      .validate(declared.schemaPointer, body)
      .map((v) => ({ pointer: v.pointer, message: describeViolation(v) }));
  };
}

/** One line for the log: the operation, and each violation with its pointer, or the error with its place. */
export function describeHandlerProblem(p: HandlerProblem, handlersFile: string | undefined): string {
  if (p.violations !== undefined)
    return `handler ${p.operationId} answered what its declaration refuses: ${p.violations
      .map((v) => `${v.pointer || '(body)'} ${v.message}`)
      .join('; ')}`;
  const place = handlersFile === undefined ? undefined : placeIn(p.error, handlersFile);
  const message = p.error instanceof Error ? p.error.message : String(p.error);
  return `handler ${p.operationId} threw${place ? ` at ${place.file}:${place.at}` : ''}: ${message} (answered Django's 500 page)`;
}
