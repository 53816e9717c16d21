import { memberText, stringifyExact } from './json.js';

// Text that came from a deployment is hostile: it may carry terminal escape codes (ESC [ 2 J, OSC
// 8 links, C1 CSI), bidi overrides that reorder a line as shown, or line breaks that forge report
// lines. Everything a report shows is passed through `printable` first.

// C0 (tab and line breaks included: a violation's text is one line), DEL, C1, and the
// direction marks and overrides (Trojan Source, CVE-2021-42574).
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The text with every control character written as an escape (`\u001b`), so none reaches a terminal. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A text that a RegExp matches as it is: every character RegExp syntax gives a meaning escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** At most `max` characters, an ellipsis where cut; never cuts a surrogate pair in two. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** A value as reports show it: JSON (integers as the deployment wrote them), `nothing` for undefined. */
export function asJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    return value !== null && typeof value === 'object'
      ? stringifyExact(value)
      : (JSON.stringify(value) ?? String(value));
  } catch {
    // A value JSON cannot write (a cycle, a BigInt): never a reason for the checker to fail.
    return String(value);
  }
}

/** `container[key]` as reports show it: asJson, a number as the deployment wrote it. */
export function asJsonMember(container: object, key: string): string {
  const v = (container as Record<string, unknown>)[key];
  return typeof v === 'number' ? (memberText(container, key) ?? asJson(v)) : asJson(v);
}
