import type { LoadProblem } from './errors.js';
import { OPENAPI_DOCUMENT_KEYWORDS } from '../openapi/ajv.js';
import { escapeToken, unescapeToken } from '../openapi/pointer.js';
import { nearest } from '../openapi/words.js';

/** An error of Ajv's check against the OpenAPI 3.1 schema, as swagger-parser gives it. */
export interface OasSchemaError {
  readonly instancePath?: string;
  readonly keyword?: string;
  readonly message?: string;
  readonly params?: Record<string, unknown>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const PARAMETER = [
  'name',
  'in',
  'description',
  'required',
  'deprecated',
  'allowEmptyValue',
  'style',
  'explode',
  'allowReserved',
  'schema',
  'example',
  'examples',
  'content',
];

/**
 * The fixed fields of each OpenAPI 3.1 object a typo can stand in (OpenAPI 3.1.0 §4.8), by the
 * name a message gives it. https://spec.openapis.org/oas/v3.1.0#schema
 */
const FIELDS: Record<string, readonly string[]> = {
  'the OpenAPI object': [...OPENAPI_DOCUMENT_KEYWORDS, 'externalDocs'],
  'the info object': ['title', 'summary', 'description', 'termsOfService', 'contact', 'license', 'version'],
  'a path item': ['$ref', 'summary', 'description', ...METHODS, 'servers', 'parameters'],
  'an operation': [
    'tags',
    'summary',
    'description',
    'externalDocs',
    'operationId',
    'parameters',
    'requestBody',
    'responses',
    'callbacks',
    'deprecated',
    'security',
    'servers',
  ],
  'a parameter': PARAMETER,
  'a header': PARAMETER.filter((f) => f !== 'name' && f !== 'in'),
  'a request body': ['description', 'content', 'required'],
  'a response': ['description', 'headers', 'content', 'links'],
  'a media type': ['schema', 'example', 'examples', 'encoding'],
  'an example': ['summary', 'description', 'value', 'externalValue'],
  'a tag': ['name', 'description', 'externalDocs'],
  'a server': ['url', 'description', 'variables'],
  'the components': [
    'schemas',
    'responses',
    'parameters',
    'examples',
    'requestBodies',
    'headers',
    'securitySchemes',
    'links',
    'callbacks',
    'pathItems',
  ],
};

const COMPONENT_KINDS: Record<string, string> = {
  parameters: 'a parameter',
  headers: 'a header',
  requestBodies: 'a request body',
  responses: 'a response',
  examples: 'an example',
  pathItems: 'a path item',
};

/** Which OpenAPI object stands at a place of the document, told by the way to it. */
export function objectAt(tokens: readonly string[]): string | undefined {
  let kind: string | undefined = 'the OpenAPI object';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const next = i + 1 < tokens.length;
    switch (kind) {
      case 'the OpenAPI object':
        if (t === 'info' || t === 'components') kind = t === 'info' ? 'the info object' : 'the components';
        else if ((t === 'paths' || t === 'webhooks') && next) [kind, i] = ['a path item', i + 1];
        else if ((t === 'tags' || t === 'servers') && next) [kind, i] = [t === 'tags' ? 'a tag' : 'a server', i + 1];
        else return undefined;
        break;
      case 'the components':
        if (!next || COMPONENT_KINDS[t] === undefined) return undefined;
        [kind, i] = [COMPONENT_KINDS[t], i + 1];
        break;
      case 'a path item':
        if (METHODS.includes(t)) kind = 'an operation';
        else if (t === 'parameters' && next) [kind, i] = ['a parameter', i + 1];
        else return undefined;
        break;
      case 'an operation':
        if (t === 'requestBody') kind = 'a request body';
        else if (t === 'responses' && next) [kind, i] = ['a response', i + 1];
        else if (t === 'parameters' && next) [kind, i] = ['a parameter', i + 1];
        else return undefined;
        break;
      case 'a request body':
      case 'a response':
      case 'a parameter':
      case 'a header':
        if (t === 'content' && next) [kind, i] = ['a media type', i + 1];
        else if (t === 'headers' && next) [kind, i] = ['a header', i + 1];
        else if (t === 'examples' && next) [kind, i] = ['an example', i + 1];
        else return undefined;
        break;
      case 'a media type':
        if (t === 'examples' && next) [kind, i] = ['an example', i + 1];
        else return undefined;
        break;
      default:
        return undefined;
    }
  }
  return kind;
}

/**
 * Ajv's errors against the OpenAPI 3.1 schema told in words: a field the object does not have
 * is named, with the field it is likely a typo of, at the field's own place (so that it is
 * placed on its line); a missing field is named. Other errors keep Ajv's message, but for the
 * summary of an `if`/`else` whose branch's own errors are told.
 */
export function oasSchemaProblems(file: string, errors: readonly OasSchemaError[]): LoadProblem[] {
  // "must match \"else\" schema" only sums up the errors of its branch, which are told themselves.
  const told = errors.some((d) => d.keyword !== 'if') ? errors.filter((d) => d.keyword !== 'if') : errors;
  return told.map((d) => {
    const pointer = d.instancePath || '/';
    const tokens = (d.instancePath ?? '').split('/').slice(1).map(unescapeToken);
    const unknown = d.params?.unevaluatedProperty ?? d.params?.additionalProperty;
    if (typeof unknown === 'string') {
      const kind = objectAt(tokens);
      const near = kind === undefined ? undefined : nearest(unknown, FIELDS[kind] ?? []);
      return {
        file,
        pointer: `${d.instancePath ?? ''}/${escapeToken(unknown)}`,
        reason:
          `unknown field \`${unknown}\`${kind ? ` in ${kind}` : ''}` +
          (near ? `; did you mean \`${near}\`?` : ' (an extension field begins with x-)'),
      };
    }
    if (d.keyword === 'required' && typeof d.params?.missingProperty === 'string') {
      const kind = objectAt(tokens);
      return {
        file,
        pointer,
        reason: `${kind ?? 'the object'} lacks the required field \`${d.params.missingProperty}\``,
      };
    }
    return {
      file,
      pointer,
      reason: `${d.message ?? 'is invalid'}${d.params ? ` ${JSON.stringify(d.params)}` : ''} (OpenAPI 3.1 schema)`,
    };
  });
}
