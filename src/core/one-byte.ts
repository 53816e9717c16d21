/**
 * `text`, stored one byte a character wherever its characters allow (none past U+00FF).
 *
 * V8 stores a string two bytes a character when it was cut from a text holding any character past
 * U+00FF (a spec with a dash in a description), or when it is a property name first met in such a
 * text, whatever its own characters; and a text joined from one two-byte part is two-byte whole.
 * An answer made of the spec's names and paths was then two-byte text, which the server encodes to
 * UTF-8 far more slowly than one-byte text, at twice the memory (docs/performance.md). JSON.parse
 * makes each string it reads as compact as its characters allow; a short one (ten characters or
 * fewer) may come back as V8's own copy from its table of names, stored as that copy is.
 *
 * For texts kept to be served again (prepared items, a collection's item path), not for each
 * answer: it copies `text` twice.
 */
export function oneByte(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
