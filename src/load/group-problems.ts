import { formatProblem, type LoadProblem } from './errors.js';
import { count } from '../openapi/words.js';

/** How many places of a group a line names before `… and N more`. */
const SHOWN = 3;

/**
 * Problems as lines to print, the same reason over many items of one file (a fixture's or an
 * example's items: pointers `/N` or `/N/…` alike after the index) in one line, at the place of
 * its first: `45 items of fixtures/desk.json lack \`zone\`: /0, /1, /2 … and 42 more`. A problem
 * met once is printed as it is; the order is that of each group's first problem.
 */
export function groupProblems(problems: readonly LoadProblem[]): string[] {
  const groups = new Map<string, LoadProblem[]>();
  let single = 0;
  for (const p of problems) {
    const item = /^\/\d+(\/.*)?$/.exec(p.pointer);
    // A problem of no item has a group of its own.
    const key = item ? `${p.file}\0${item[1] ?? ''}\0${p.reason}` : `\0${single++}`;
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [LoadProblem];
    if (group.length === 1) return formatProblem(first);
    const places = group.slice(0, SHOWN).map((p) => p.pointer);
    const more = group.length > SHOWN ? ` … and ${group.length - SHOWN} more` : '';
    const missing = /^must have required property "(.*)"$/.exec(first.reason)?.[1];
    const rest = first.pointer.replace(/^\/\d+/, '');
    const what =
      missing !== undefined && rest === '' ? ` lack \`${missing}\`` : `${rest ? ` at /…${rest}` : ''}: ${first.reason}`;
    const at = first.line === undefined ? '' : ` (the first at line ${first.line}:${first.column ?? 1})`;
    return `${count(group.length, 'item')} of ${first.file}${what}: ${places.join(', ')}${more}${at}`;
  });
}
