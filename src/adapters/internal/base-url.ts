import { type FixedBase, fixedBase } from '../../core/django/host.js';

/** A `baseUrl`, checked as the server checks `--base-url`; a TypeError where it is not one. */
export function parseBaseUrl(raw: string | undefined): FixedBase | undefined {
  if (raw === undefined) return undefined;
  const base = fixedBase(raw);
  if (base === undefined)
    throw new TypeError(
      `baseUrl must be an absolute http(s) URL without query, fragment or credentials (got ${JSON.stringify(raw)})`,
    );
  return base;
}
