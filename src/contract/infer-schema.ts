/**
 * A JSON Schema (2020-12, as OpenAPI 3.1 takes it) inferred from example values, one value at a
 * time (nothing is kept but the shape). Small on purpose: types (null merged in, integer widened
 * to number), `required` as the members every object had, formats only when every string had
 * one, no examples (recorded values may be personal data). For a designer to review, never applied.
 */
export class SchemaInferrer {
  #seen = 0;
  readonly #types = new Set<string>();
  #objects = 0;
  readonly #properties = new Map<string, { inferrer: SchemaInferrer; seen: number }>();
  #tooManyProperties = false;
  #items: SchemaInferrer | undefined;
  /** The one format every string so far had; null once two differ or one had none. */
  #format: string | null | undefined;

  static readonly MAX_PROPERTIES = 500;

  add(value: unknown): void {
    this.#seen++;
    if (value === null) this.#types.add('null');
    else if (typeof value === 'boolean') this.#types.add('boolean');
    else if (typeof value === 'number') this.#types.add(Number.isInteger(value) ? 'integer' : 'number');
    else if (typeof value === 'string') {
      this.#types.add('string');
      const f = formatOf(value);
      this.#format = this.#format === undefined ? (f ?? null) : this.#format === f ? f : null;
    } else if (Array.isArray(value)) {
      this.#types.add('array');
      this.#items ??= new SchemaInferrer();
      for (const v of value) this.#items.add(v);
    } else if (typeof value === 'object') {
      this.#types.add('object');
      this.#objects++;
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        let p = this.#properties.get(k);
        if (!p) {
          if (this.#properties.size >= SchemaInferrer.MAX_PROPERTIES) {
            this.#tooManyProperties = true;
            continue;
          }
          p = { inferrer: new SchemaInferrer(), seen: 0 };
          this.#properties.set(k, p);
        }
        p.seen++;
        p.inferrer.add(v);
      }
    }
  }

  get count(): number {
    return this.#seen;
  }

  /** Member names seen in the objects. */
  get fields(): string[] {
    return [...this.#properties.keys()];
  }

  schema(): Record<string, unknown> {
    const types = [...this.#types];
    if (types.includes('integer') && types.includes('number')) types.splice(types.indexOf('integer'), 1);
    const out: Record<string, unknown> = {};
    if (types.length === 1) out.type = types[0];
    else if (types.length > 1) out.type = types.sort((a, b) => TYPE_ORDER.indexOf(a) - TYPE_ORDER.indexOf(b));
    if (this.#types.has('string') && typeof this.#format === 'string') out.format = this.#format;
    if (this.#types.has('array') && this.#items && this.#items.count > 0) out.items = this.#items.schema();
    if (this.#types.has('object')) {
      const required = [...this.#properties].filter(([, p]) => p.seen === this.#objects).map(([k]) => k);
      if (required.length > 0) out.required = required;
      out.properties = Object.fromEntries([...this.#properties].map(([k, p]) => [k, p.inferrer.schema()]));
      if (this.#tooManyProperties)
        out.description = `more than ${SchemaInferrer.MAX_PROPERTIES} members seen; only the first are listed`;
    }
    return out;
  }
}

const TYPE_ORDER = ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'];

// Formats of JSON Schema's vocabulary that Ajv (ajv-formats) checks, tested in this order.
const FORMATS: readonly [string, RegExp][] = [
  ['date-time', /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['time', /^\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/],
  ['uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i],
  ['email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/],
  ['uri', /^https?:\/\/[^\s]+$/],
];

function formatOf(s: string): string | undefined {
  return FORMATS.find(([, re]) => re.test(s))?.[0];
}
