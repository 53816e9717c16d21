// Markdown for stdout (to paste into the README) and the checks against the performance targets.

export interface Check {
  /** What the target is, in words: "1,000,000 desks: start-up to first answer". */
  name: string;
  /** The target: "≤ 3 s". */
  target: string;
  /** The figure measured, with its unit; undefined when it could not be measured. */
  measured: string | undefined;
  /** undefined: not measured (the reason is in `measured` or `note`). */
  met: boolean | undefined;
  /** Set for thresholds the bench proposes where the issue gave none. */
  proposed?: boolean;
  note?: string;
}

export function table(header: string[], rows: (string | number)[][]): string {
  const esc = (c: string | number) => String(c).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

export function checksTable(checks: Check[]): string {
  return table(
    ['target', 'measured', 'result'],
    checks.map((c) => [
      `${c.name} ${c.target}${c.proposed ? ' (proposed: no threshold was given)' : ''}`,
      `${c.measured ?? 'not measured'}${c.note ? ` (${c.note})` : ''}`,
      c.met === undefined ? 'not measured' : c.met ? 'met' : '**NOT met**',
    ]),
  );
}

/** "target … met/NOT met" as one line, printed as each figure comes in. */
export function checkLine(c: Check): string {
  const verdict = c.met === undefined ? 'not measured' : c.met ? 'met' : 'NOT met';
  return `target ${c.name} ${c.target}: ${c.measured ?? '—'} … ${verdict}${c.proposed ? ' (proposed threshold)' : ''}`;
}

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const ratio = (n: number): string => (Number.isFinite(n) ? `${fmt(n, 2)}×` : '—');
