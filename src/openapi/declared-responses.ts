import { type At, appendPointer, childAt, followChild, isObject } from './pointer.js';
import { sparseElements } from './sparse-elements.js';

/** A response the spec declares for an operation: status, and the JSON schema's pointer if any. */
export interface DeclaredResponse {
  readonly status: string;
  /** The media type answered: `application/json` when declared, else the first declared, if any. */
  readonly mediaType: string | undefined;
  readonly schemaPointer: string | undefined;
  /** Named examples (`content.application/json.examples`), values resolved. */
  readonly examples: Readonly<Record<string, unknown>>;
  /**
   * The response's headers whose value the spec gives (an `example`, or its schema's `const`,
   * `default` or first `example`): a declared `Location` of a redirect.
   */
  readonly headers: Readonly<Record<string, string>>;
}

/** The declared responses of an operation (`op`: its raw node), and the 200 answer's JSON schema (followed). */
export function declaredResponses(
  doc: unknown,
  op: At,
): { responses: Record<string, DeclaredResponse>; okSchema: At | undefined } {
  // Status keys ("200", "404") kept small (sparseElements): thousands of operations would otherwise
  // each hold a store of 600-odd slots.
  const out = sparseElements<Record<string, DeclaredResponse>>({});
  let okSchema: At | undefined;
  const responses = followChild(doc, op, 'responses');
  if (!isObject(responses.node)) return { responses: out, okSchema };
  for (const status of Object.keys(responses.node)) {
    const resp = followChild(doc, responses, status);
    const content = followChild(doc, resp, 'content');
    const types = isObject(content.node) ? Object.keys(content.node) : [];
    const mediaType = types.find((t) => t === 'application/json') ?? types.find(isJsonMedia) ?? types[0];
    const media = mediaType === undefined ? content : followChild(doc, content, mediaType);
    const schemaPointer =
      mediaType !== undefined && isJsonMedia(mediaType) && isObject(media.node) && media.node.schema !== undefined
        ? appendPointer(media.pointer, 'schema')
        : undefined;
    if (status === '200' && schemaPointer !== undefined) okSchema = followChild(doc, media, 'schema');
    const examples: Record<string, unknown> = {};
    if (mediaType !== undefined && isObject(media.node) && isObject(media.node.examples)) {
      const named = childAt(doc, media, 'examples');
      for (const name of Object.keys(media.node.examples)) {
        const ex = followChild(doc, named, name).node;
        if (isObject(ex) && 'value' in ex) examples[name] = ex.value;
      }
    } else if (mediaType !== undefined && isObject(media.node) && 'example' in media.node) {
      examples.default = media.node.example;
    }
    out[status] = { status, mediaType, schemaPointer, examples, headers: headerValues(doc, resp) };
  }
  return { responses: out, okSchema };
}

/** The declared headers of a response that name their value (lower-case names). */
function headerValues(doc: unknown, resp: At): Record<string, string> {
  const out: Record<string, string> = {};
  const headers = followChild(doc, resp, 'headers');
  if (!isObject(headers.node)) return out;
  for (const name of Object.keys(headers.node)) {
    const header = followChild(doc, headers, name);
    const schema = followChild(doc, header, 'schema').node;
    const value = isObject(header.node) && 'example' in header.node ? header.node.example : valueOf(schema);
    if (typeof value === 'string' || typeof value === 'number') out[name.toLowerCase()] = String(value);
  }
  return out;
}

function valueOf(schema: unknown): unknown {
  if (!isObject(schema)) return undefined;
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  return Array.isArray(schema.examples) ? schema.examples[0] : undefined;
}

/** A JSON media type: `application/json`, or a `+json` suffix (`application/problem+json`). */
export function isJsonMedia(type: string): boolean {
  const t = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return t === 'application/json' || t.endsWith('+json');
}
