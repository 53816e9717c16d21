import { formatProblem, type LoadProblem } from '../openapi/problem.js';

export { formatProblem, type LoadProblem };

/** Thrown by spec and fixture loading with every problem found, never only the first. */
export class LoadError extends Error {
  readonly problems: readonly LoadProblem[];
  constructor(problems: readonly LoadProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'LoadError';
    this.problems = problems;
  }
}
