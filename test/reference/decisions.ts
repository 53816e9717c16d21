// The stub's decisions, not imitated on purpose (docs/fidelity.md lists each beside what the
// deployment answers): where one applies to a request, the stub's answer differs from the
// deployment's by design. Each says how to get the deployment's answer instead.
import type { CorpusRequest } from './corpus.js';
import type { Answer } from './send.js';

export interface StubDecision {
  id: string;
  /** What the stub answers instead, in one sentence. */
  summary: string;
  /** Why, and the switch that answers as the deployment does. */
  why: string;
  /** Does the decision explain the stub's answer to this request? */
  applies(req: CorpusRequest, stub: Answer): boolean;
}

export const STUB_DECISIONS: readonly StubDecision[] = [
  {
    id: 'safety-cross-site-simple-write',
    summary:
      'a CORS-simple write (a form or text/plain body, no preflight) from an origin the stub does not allow is refused, 403 problem+json, nothing written',
    why: "a web page the developer visits must not write to a local stub (docs/safety.md); the deployment takes it. --frontend-origin (the deployment's CORS) or --cors any answer as the deployment does",
    applies: (req, stub) =>
      req.headers.some(([name]) => name.toLowerCase() === 'origin') &&
      stub.status === 403 &&
      stub.headers['content-type'] === 'application/problem+json' &&
      stub.body.includes('Cross-site request refused'),
  },
];
