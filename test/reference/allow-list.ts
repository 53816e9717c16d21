// Known version differences between the reference (Django 4.2 from Debian bookworm-backports + DRF
// 3.16.0 from Debian trixie, unpacked by install-deps.sh) and what the stub imitates: the deployment,
// Django 4.2 + DRF 3.15.2 (the versions its requirements pin). Each entry turns the reference's answer
// into the answer 3.15.2 gives, and cites the source lines of both versions that prove it:
//   DRF: github.com/encode/django-rest-framework at tags 3.15.2 and 3.16.0 (Debian's
//        python3-djangorestframework 3.16.0-1 ships the 3.16.0 files cited unchanged);
//   Django: 4.2 on both sides.
// Nothing else belongs here: a difference that is not a version difference is a stub bug. (The
// document's decisions, format=api and Accept: text/html answering JSON, are built into the reference.)
//
// None is needed today: a run of the whole corpus against the reference on DRF 3.15.2 and on 3.16.0
// found no difference (3.16.0 changed nothing the corpus reaches: see test/reference/README.md). The
// helpers stay for the entries a later corpus or version may need.
//
// Entries apply in order. Rewrites (ask the reference a request that is equivalent under the other
// versions) come first; edits of the answer (a message, a header) after.
import type { CorpusRequest } from './corpus.js';
import type { Answer } from './send.js';

export interface AllowState {
  /** The request whose reference answer `answer` is (the corpus request, or a rewrite of it). */
  request: CorpusRequest;
  answer: Answer;
}

export interface AllowContext {
  /** Sends a request to the reference deployment of the same configuration. */
  reference(req: CorpusRequest): Promise<Answer>;
}

export interface AllowEntry {
  id: string;
  /** The difference, in one sentence. */
  summary: string;
  /** Source lines of the older versions (the reference). */
  older: string[];
  /** Source lines of the newer versions (what the stub imitates). */
  newer: string[];
  /** The newer versions' answer, or null when the entry does not apply to this request. */
  adjust(state: AllowState, ctx: AllowContext): Promise<AllowState | null>;
}

// --- Python and Django semantics the entries need -------------------------------------------------

/** Percent-decoding as Python's unquote (UTF-8, invalid sequences replaced). */
function unquote(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const m = /^%([0-9a-fA-F]{2})/.exec(s.slice(i, i + 3));
    if (m?.[1]) {
      bytes.push(parseInt(m[1], 16));
      i += 2;
    } else bytes.push(...Buffer.from(s[i] as string, 'utf8'));
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Uint8Array.from(bytes));
}

/** A query string as Django's QueryDict parses it: `&`-separated, blank values kept, `+` is a space. */
export function parseQuery(query: string): { raw: string; key: string; value: string }[] {
  if (!query) return [];
  return query
    .split('&')
    .filter((p) => p !== '')
    .map((raw) => {
      const i = raw.indexOf('=');
      const [k, v] = i < 0 ? [raw, ''] : [raw.slice(0, i), raw.slice(i + 1)];
      return { raw, key: unquote(k.replace(/\+/g, ' ')), value: unquote(v.replace(/\+/g, ' ')) };
    });
}

/** Python's int(str): surrounding whitespace, a sign, decimal digits of any script, single underscores between digits. */
export function pythonInt(s: string): bigint | null {
  const m = /^\s*([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)\s*$/u.exec(s);
  if (!m) return null;
  let n = 0n;
  for (const ch of (m[2] as string).replace(/_/g, '')) {
    let cp = ch.codePointAt(0) as number;
    let zero = cp;
    while (zero > 0 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    cp = (cp - zero) % 10;
    n = n * 10n + BigInt(cp);
  }
  return m[1] === '-' ? -n : n;
}

// --- The entries --------------------------------------------------------------------------------

export const ALLOW_LIST: readonly AllowEntry[] = [];
