import { clip, escapeRegExp, printable } from './safe-text.js';
import { quote, quotePlus } from '../core/python/quote.js';

/** What a secret becomes in a report. */
export const REDACTED = '[redacted]';

// Shorter values would be redacted everywhere they happen to occur ("1", "en"): not secrets.
const MIN_SECRET = 4;

// Headers QA passes that carry no credential: shown as they are.
const NOT_SECRET = new Set([
  'accept',
  'accept-language',
  'accept-encoding',
  'user-agent',
  'prefer',
  'content-type',
  'cache-control',
  'pragma',
]);

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');
const toUrlAlphabet = (b64text: string): string => b64text.replaceAll('+', '-').replaceAll('/', '_');

/**
 * The base64 and base64url text of `secret` wherever it starts inside a longer value
 * (`base64("tok=" + token)`, a JWT's payload): for each of the three byte alignments, the
 * characters that the secret's bytes alone decide. The first one or two characters of each
 * alignment also carry bits of the bytes before, the last one those of the bytes after: left out.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out: string[] = [];
  for (const before of [0, 1, 2]) {
    const text = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64');
    const core = text.slice(Math.ceil((before * 8) / 6), Math.floor(((before + bytes.length) * 8) / 6));
    out.push(core, toUrlAlphabet(core));
  }
  return out;
}

/** Every form in which a deployment may echo `secret` back: raw, JSON-escaped, URL-encoded, HTML-escaped, base64 and base64url at any alignment. */
function encodingsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  // Python's json.dumps(ensure_ascii=True) and some renderers escape every non-ASCII character.
  const asciiJson = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const html = secret.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c] ?? c,
  );
  return [
    secret,
    json,
    asciiJson,
    json.replaceAll('/', '\\/'),
    encodeURIComponent(secret),
    // Every byte but the unreserved ones, as Python writes it (encodeURIComponent keeps !'()*).
    quote(secret, ''),
    quotePlus(secret),
    encodeURIComponent(secret).replaceAll('%20', '+'),
    html,
    html.replaceAll('&#x27;', '&#39;'),
    b64(secret),
    b64(secret).replace(/=+$/, ''),
    b64url(secret),
    ...base64Cores(secret),
  ];
}

/** The credential parts of a header value: the value, the part after its scheme, a Basic credential decoded, cookie values. */
export function secretsOfHeader(value: string): string[] {
  const out = [value];
  const scheme = /^([A-Za-z][A-Za-z0-9_-]*)\s+(\S.*)$/.exec(value.trim());
  if (scheme?.[2]) {
    out.push(scheme[2]);
    if (scheme[1]?.toLowerCase() === 'basic') {
      const decoded = Buffer.from(scheme[2], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0 && !decoded.includes('\ufffd')) out.push(decoded, decoded.slice(colon + 1));
    }
  }
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.push(part.slice(eq + 1).trim());
  }
  return out;
}

/**
 * Removes secrets (the `--header` values QA passed, in every encoding a deployment may echo them)
 * from text before it is shown, clipped or written anywhere. Matching is case-insensitive, so a
 * percent-encoding in lower-case hex is caught too (at worst a near-copy of a secret is redacted).
 */
export class Redactor {
  readonly #variants: readonly string[];
  readonly #pattern: RegExp | undefined;
  /** Length of the longest form of a secret. */
  readonly longest: number;

  constructor(secrets: Iterable<string>) {
    const variants = new Set<string>();
    for (const s of secrets)
      if (s.length >= MIN_SECRET)
        for (const v of encodingsOf(s)) if (v.length >= MIN_SECRET) variants.add(v.toLowerCase());
    // Longest first: a secret that contains another is replaced whole.
    this.#variants = [...variants].sort((a, b) => b.length - a.length);
    this.#pattern =
      this.#variants.length > 0 ? new RegExp(this.#variants.map(escapeRegExp).join('|'), 'gi') : undefined;
    this.longest = this.#variants[0]?.length ?? 0;
  }

  /** A redactor for the headers sent with every request (their names are not secret, their values are). */
  static forHeaders(headers: Readonly<Record<string, string>>, more: readonly string[] = []): Redactor {
    const secrets = [...more];
    for (const [name, value] of Object.entries(headers))
      if (!NOT_SECRET.has(name.toLowerCase())) secrets.push(...secretsOfHeader(value));
    return new Redactor(secrets);
  }

  /** The text with every occurrence of a secret replaced by `[redacted]`. */
  redact(text: string): string {
    return this.#pattern ? text.replace(this.#pattern, REDACTED) : text;
  }

  /**
   * What a report may show of `text`: secrets redacted first, then control characters escaped,
   * then clipped to `max` characters. Only the first `max + longest` characters are read, and an
   * end that could be the start of a secret is dropped before redacting: a secret never shows in
   * part, wherever the cut falls.
   */
  safe(text: string, max: number): string {
    let t = text;
    let cut = false;
    if (t.length > max + this.longest) {
      t = this.#dropPartialTail(t.slice(0, max + this.longest));
      cut = true;
    }
    const shown = clip(printable(this.redact(t)), max);
    return cut && !shown.endsWith('…') ? `${shown}…` : shown;
  }

  /** Drops the longest end of `text` that a secret could continue (the start of an occurrence the cut split). */
  #dropPartialTail(text: string): string {
    const lower = text.slice(-this.longest).toLowerCase();
    let drop = 0;
    for (const v of this.#variants) {
      for (let k = Math.min(v.length - 1, lower.length); k > drop; k--) {
        if (lower.endsWith(v.slice(0, k))) {
          drop = k;
          break;
        }
      }
    }
    return text.slice(0, text.length - drop);
  }
}
