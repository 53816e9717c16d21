import { FIELD_ERRORS, fieldError } from '../errors.js';
import { pyStr, strip } from '../python/str.js';
import { itemMembers } from '../../openapi/item-schema.js';
import { isObject } from '../../openapi/pointer.js';
import { pythonInt } from '../python/int.js';

/**
 * A DRF ModelSerializer's writable fields, read from a request body schema: each property is the
 * field DRF would build for the model field a Django developer would write for it
 * (rest_framework/fields.py), with its messages. `url`, the lookup field and `readOnly`
 * properties are read-only: ignored in input.
 */
export interface FieldRule {
  readonly name: string;
  readonly kind: 'integer' | 'number' | 'string' | 'boolean' | 'choice' | 'list' | 'dict' | 'any';
  readonly required: boolean;
  readonly allowNull: boolean;
  readonly allowBlank: boolean;
  readonly readOnly: boolean;
  readonly choices?: readonly unknown[];
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly maximum?: number;
  readonly minimum?: number;
  readonly pattern?: RegExp;
  readonly format?: string;
  readonly default?: { readonly value: unknown };
  /** `x-unique: true`: a unique model field (ModelSerializer adds UniqueValidator). */
  readonly unique?: boolean;
  /** Each choice's display name (`x-enum-descriptions`, in the order of `enum`: a model's choices). */
  readonly choiceNames?: readonly string[];
  /** `x-computed: true`: the server computes it (a SerializerMethodField: OPTIONS types it "field"). */
  readonly computed?: boolean;
}

export function serializerFields(doc: unknown, schemaPointer: string, readOnlyNames: ReadonlySet<string>): FieldRule[] {
  const { fields, schemas, required } = itemMembers(doc, schemaPointer);
  return fields.flatMap((name) => {
    const p = schemas.get(name);
    return isObject(p) ? [fieldRule(name, p, required.has(name), readOnlyNames.has(name) || p.readOnly === true)] : [];
  });
}

/** The field a JSON Schema type is (an enum is a ChoiceField whatever its type). */
const KINDS = new Map<string | undefined, FieldRule['kind']>([
  ['integer', 'integer'],
  ['number', 'number'],
  ['string', 'string'],
  ['boolean', 'boolean'],
  ['array', 'list'],
  ['object', 'dict'],
]);

function fieldRule(name: string, p: Record<string, unknown>, required: boolean, readOnly: boolean): FieldRule {
  const types = Array.isArray(p.type) ? p.type.map(String) : typeof p.type === 'string' ? [p.type] : [];
  const choices = Array.isArray(p.enum) ? p.enum : 'const' in p ? [p.const] : undefined;
  const allowNull = types.includes('null') || (choices?.includes(null) ?? false) || p.nullable === true;
  const type = types.find((t) => t !== 'null');
  const num = (k: string) => (typeof p[k] === 'number' ? (p[k] as number) : undefined);
  let pattern: RegExp | undefined;
  if (typeof p.pattern === 'string') {
    try {
      pattern = new RegExp(p.pattern, 'u');
    } catch {
      pattern = undefined;
    }
  }
  const kind = choices !== undefined ? 'choice' : (KINDS.get(type) ?? 'any');
  const exclusiveMin = num('exclusiveMinimum');
  const exclusiveMax = num('exclusiveMaximum');
  const unique = p['x-unique'] === true;
  const names = Array.isArray(p['x-enum-descriptions']) ? p['x-enum-descriptions'].map(String) : undefined;
  return {
    name,
    kind,
    required: required && !readOnly && !('default' in p),
    allowNull,
    // A Django CharField refuses '' unless blank=True: the schema says so with `minLength: 0`.
    allowBlank: num('minLength') === 0,
    readOnly,
    ...(choices ? { choices: choices.filter((c) => c !== null) } : {}),
    ...(num('maxLength') !== undefined ? { maxLength: num('maxLength') } : {}),
    ...(num('minLength') !== undefined && (num('minLength') as number) > 1 ? { minLength: num('minLength') } : {}),
    ...(num('maximum') !== undefined
      ? { maximum: num('maximum') }
      : exclusiveMax !== undefined && kind === 'integer'
        ? { maximum: exclusiveMax - 1 }
        : {}),
    ...(num('minimum') !== undefined
      ? { minimum: num('minimum') }
      : exclusiveMin !== undefined && kind === 'integer'
        ? { minimum: exclusiveMin + 1 }
        : {}),
    ...(pattern ? { pattern } : {}),
    ...(typeof p.format === 'string' ? { format: p.format } : {}),
    ...('default' in p ? { default: { value: p.default } } : {}),
    ...(unique ? { unique } : {}),
    ...(names !== undefined ? { choiceNames: names } : {}),
    ...(p['x-computed'] === true ? { computed: true } : {}),
  };
}

export type Validated = { ok: true; values: Record<string, unknown> } | { ok: false; errors: Record<string, string[]> };

const EMPTY = Symbol('empty');

class FieldError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join(' '));
  }
}
class Skip extends Error {}

/** Python's `type(x).__name__` of a JSON value. */
function pyType(v: unknown): string {
  if (v === null) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return 'dict';
}

const TRUE_VALUES = new Set(['t', 'y', 'yes', 'true', 'on', '1']);
const FALSE_VALUES = new Set(['f', 'n', 'no', 'false', 'off', '0']);

function toInternal(rule: FieldRule, data: unknown): unknown {
  switch (rule.kind) {
    case 'integer': {
      if (typeof data === 'string' && data.length > 1000) throw new FieldError([FIELD_ERRORS.STRING_TOO_LARGE]);
      if (typeof data === 'boolean' || (typeof data !== 'string' && typeof data !== 'number'))
        throw new FieldError([FIELD_ERRORS.INVALID_INTEGER]);
      // int(re.sub(r'\.0*\s*$', '', str(data)))
      const n = pythonInt(String(data).replace(/\.0*\s*$/, ''));
      if (n === undefined) throw new FieldError([FIELD_ERRORS.INVALID_INTEGER]);
      return Number(n);
    }
    case 'number': {
      if (typeof data === 'boolean') return data ? 1 : 0;
      if (typeof data === 'number') return data;
      if (typeof data === 'string' && data.length > 1000) throw new FieldError([FIELD_ERRORS.STRING_TOO_LARGE]);
      const n =
        typeof data === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(data)
          ? Number(data)
          : Number.NaN;
      if (Number.isNaN(n)) throw new FieldError([FIELD_ERRORS.INVALID_NUMBER]);
      return n;
    }
    case 'boolean': {
      const v = typeof data === 'string' ? data.toLowerCase() : data;
      if (v === true || v === 1 || (typeof v === 'string' && TRUE_VALUES.has(v))) return true;
      if (v === false || v === 0 || (typeof v === 'string' && FALSE_VALUES.has(v))) return false;
      if ((v === 'null' || v === '' || v === null) && rule.allowNull) return null;
      throw new FieldError([FIELD_ERRORS.INVALID_BOOLEAN]);
    }
    case 'choice': {
      if (data === '' && rule.allowBlank && !(rule.choices ?? []).includes('')) return '';
      const hit = (rule.choices ?? []).find((c) => pyStr(c) === pyStr(data));
      if (hit === undefined) throw new FieldError([fieldError(FIELD_ERRORS.INVALID_CHOICE, { input: pyStr(data) })]);
      return hit;
    }
    case 'string': {
      if (rule.format === 'date') return parseDate(data);
      if (typeof data === 'boolean' || (typeof data !== 'string' && typeof data !== 'number'))
        throw new FieldError([FIELD_ERRORS.INVALID_STRING]);
      return strip(String(data));
    }
    case 'list':
      if (!Array.isArray(data))
        throw new FieldError([fieldError(FIELD_ERRORS.NOT_A_LIST, { input_type: pyType(data) })]);
      return data;
    case 'dict':
      if (!isObject(data)) throw new FieldError([fieldError(FIELD_ERRORS.NOT_A_DICT, { input_type: pyType(data) })]);
      return data;
    default:
      return data;
  }
}

/**
 * DRF's DateField with ISO 8601 input (django.utils.dateparse.parse_date): `date.fromisoformat`,
 * else `\d{4}-\d{1,2}-\d{1,2}` (Python's \d: any decimal digit), a real calendar date; answered
 * as `date.isoformat()`.
 */
function parseDate(data: unknown): string {
  if (typeof data !== 'string') throw new FieldError([FIELD_ERRORS.INVALID_DATE]);
  const m = /^(\p{Nd}{4})-(\p{Nd}{1,2})-(\p{Nd}{1,2})$/u.exec(data) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(data);
  if (!m) throw new FieldError([FIELD_ERRORS.INVALID_DATE]);
  const [y, mo, d] = [m[1], m[2], m[3]].map((x) => Number(pythonInt(x ?? '') ?? Number.NaN));
  const date = new Date(Date.UTC(y as number, (mo as number) - 1, d as number));
  if (
    !Number.isFinite(y) ||
    (y as number) < 1 ||
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== (mo as number) - 1 ||
    date.getUTCDate() !== d
  )
    throw new FieldError([FIELD_ERRORS.INVALID_DATE]);
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^(?:[a-z0-9.+-]*):\/\/[^\s/?#]+(?:[/?#][^\s]*)?$/i;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** The field's validators, every message collected (run_validators). */
function validators(rule: FieldRule, value: unknown): string[] {
  const out: string[] = [];
  if (typeof value === 'string') {
    // The model field's own validators come first, then those CharField adds (max, min, NUL).
    if (rule.pattern && !rule.pattern.test(value)) out.push(FIELD_ERRORS.INVALID_VALUE);
    if (rule.format === 'email' && !EMAIL.test(value)) out.push(FIELD_ERRORS.INVALID_EMAIL);
    if ((rule.format === 'uri' || rule.format === 'url') && !URL_RE.test(value)) out.push(FIELD_ERRORS.INVALID_URL);
    if (rule.format === 'uuid' && !UUID.test(value)) out.push(FIELD_ERRORS.INVALID_UUID);

    if (rule.format === 'date-time' && !DATETIME.test(value)) out.push(FIELD_ERRORS.INVALID_DATETIME);
    const length = [...value].length;
    if (rule.maxLength !== undefined && length > rule.maxLength)
      out.push(fieldError(FIELD_ERRORS.MAX_LENGTH, { max_length: rule.maxLength }));
    if (rule.minLength !== undefined && length < rule.minLength)
      out.push(fieldError(FIELD_ERRORS.MIN_LENGTH, { min_length: rule.minLength }));
    if (value.includes('\u0000')) out.push(FIELD_ERRORS.NULL_CHARACTERS);
    const surrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(value);
    if (surrogate)
      out.push(
        fieldError(FIELD_ERRORS.SURROGATE_CHARACTERS, {
          code_point: surrogate[0].charCodeAt(0).toString(16).toUpperCase(),
        }),
      );
  }
  if (typeof value === 'number') {
    if (rule.maximum !== undefined && value > rule.maximum)
      out.push(fieldError(FIELD_ERRORS.MAX_VALUE, { limit_value: rule.maximum }));
    if (rule.minimum !== undefined && value < rule.minimum)
      out.push(fieldError(FIELD_ERRORS.MIN_VALUE, { limit_value: rule.minimum }));
  }
  return out;
}

/** Field.run_validation: empty values, null, blank, to_internal_value, then the validators. */
function runField(rule: FieldRule, data: unknown, partial: boolean): unknown {
  if (data === EMPTY) {
    if (partial) throw new Skip();
    if (rule.required) throw new FieldError([FIELD_ERRORS.REQUIRED]);
    // A model field's default is not the serializer field's (ModelSerializer sets none): the
    // model applies it when a row is created, and an update leaves the field as it was.
    throw new Skip();
  }
  if (data === null) {
    if (!rule.allowNull) throw new FieldError([FIELD_ERRORS.NULL]);
    return null;
  }
  // CharField's own check (EmailField and URLField are CharFields; DateField and DateTimeField are not).
  if (
    rule.kind === 'string' &&
    rule.format !== 'date' &&
    rule.format !== 'date-time' &&
    (data === '' || strip(String(data)) === '')
  ) {
    if (!rule.allowBlank) throw new FieldError([FIELD_ERRORS.BLANK]);
    return '';
  }
  const value = toInternal(rule, data);
  const errors = validators(rule, value);
  if (errors.length > 0) throw new FieldError(errors);
  return value;
}

/** The value of a field in the input: `EMPTY` when absent (an HTML form's own rules for forms). */
function fieldInput(
  rule: FieldRule,
  data: Record<string, unknown> | Map<string, string[]>,
  form: boolean,
  partial: boolean,
): unknown {
  if (!form) {
    const obj = data as Record<string, unknown>;
    return Object.hasOwn(obj, rule.name) ? obj[rule.name] : EMPTY;
  }
  const values = (data as Map<string, string[]>).get(rule.name);
  if (values === undefined) {
    if (partial) return EMPTY;
    // An unchecked checkbox sends nothing: BooleanField.default_empty_html is False.
    return rule.kind === 'boolean' ? (rule.allowNull ? null : false) : EMPTY;
  }
  const v = values[values.length - 1] ?? '';
  if (v === '' && rule.allowNull) return rule.allowBlank && rule.kind === 'string' ? '' : null;
  if (v === '' && !rule.required) return rule.allowBlank && rule.kind === 'string' ? '' : EMPTY;
  return v;
}

/**
 * Serializer.is_valid: the input must be a dictionary (a form is one); each writable field in order
 * is validated; every field's errors are reported, unknown members ignored.
 */
export function validateInput(
  rules: readonly FieldRule[],
  data: unknown,
  opts: {
    readonly partial: boolean;
    readonly form: boolean;
    /**
     * UniqueValidator's question: does another row hold this value (`unique` fields), and its
     * message (`desk with this number already exists.`).
     */
    readonly unique?: { taken(field: string, value: unknown): boolean; message(field: string): string };
  },
): Validated {
  if (data === null || data === undefined) return { ok: false, errors: { non_field_errors: [FIELD_ERRORS.NO_DATA] } };
  if (!opts.form && !isObject(data))
    return {
      ok: false,
      errors: { non_field_errors: [fieldError(FIELD_ERRORS.INVALID_DATA, { datatype: pyType(data) })] },
    };
  const values: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const rule of rules) {
    if (rule.readOnly) continue;
    try {
      values[rule.name] = runField(
        rule,
        fieldInput(rule, data as Record<string, unknown> | Map<string, string[]>, opts.form, opts.partial),
        opts.partial,
      );
      if (rule.unique === true && opts.unique?.taken(rule.name, values[rule.name]))
        throw new FieldError([opts.unique.message(rule.name)]);
    } catch (e) {
      if (e instanceof Skip) continue;
      if (e instanceof FieldError) errors[rule.name] = e.messages;
      else throw e;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values };
}
