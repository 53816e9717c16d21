import { escapeRegExp } from '../safe-text.js';

/**
 * Replaces one base URL with another in text (a body, a header value), so that links the upstream
 * wrote for itself lead through the proxy. A base counts only where it ends (followed by a path,
 * a query, a quote, space or the end): `http://h:80` is not a prefix of `http://h:8000`. JSON's
 * escaped solidus (`http:\/\/h`) is rewritten too.
 */
export class BaseRewriter {
  readonly #pattern: RegExp;
  readonly #to: string;
  readonly #toEscaped: string;

  constructor(from: string, to: string) {
    const end = String.raw`(?=[/?#"'\s<>\\,;]|$)`;
    const escaped = from.replaceAll('/', '\\/');
    this.#pattern = new RegExp(`${escapeRegExp(from)}${end}|${escapeRegExp(escaped)}${end}`, 'gi');
    this.#to = to;
    this.#toEscaped = to.replaceAll('/', '\\/');
  }

  rewrite(text: string): string {
    return text.replace(this.#pattern, (m) => (m.includes('\\/') ? this.#toEscaped : this.#to));
  }
}

/** Bodies the proxy rewrites: text it can read (JSON, HTML, plain text, XML); anything else passes as bytes. */
export function isRewritable(contentType: string): boolean {
  return /^(?:application\/(?:[\w.+-]+\+)?(?:json|xml|javascript)|text\/)/i.test(contentType.trim());
}
