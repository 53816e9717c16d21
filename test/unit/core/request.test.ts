import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_KEY_HEADERS } from '../../../src/core/request.js';

const CORE = path.join(import.meta.dirname, '../../../src/core');

/** Every header name the core reads by its literal name (`header('accept')`), with the file. */
function headersRead(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of readdirSync(CORE, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(path.join(CORE, file), 'utf8');
    for (const m of text.matchAll(/\bheader\('([^']+)'\)/g))
      out.set(m[1] as string, [...(out.get(m[1] as string) ?? []), file]);
  }
  return out;
}

describe('the headers an answer depends on (the answer cache keys on them)', () => {
  it('lower-case names, each once, a list nobody can change', () => {
    expect(CACHE_KEY_HEADERS.every((h) => h === h.toLowerCase())).toBe(true);
    expect(new Set(CACHE_KEY_HEADERS).size).toBe(CACHE_KEY_HEADERS.length);
    expect(Object.isFrozen(CACHE_KEY_HEADERS)).toBe(true);
  });

  it('name every header the core reads, but those read only for a body (a write, an action: never cached)', () => {
    // A body's type and a write's CSRF token (django/csrf.ts, drf/mixins.ts, stub/cors.ts crossSiteWrite);
    // only lists and details are marked cacheable.
    const writesOnly = new Set(['content-type', 'x-csrftoken']);
    const read = headersRead();
    expect(read.size).toBeGreaterThan(8);
    const missing = [...read].filter(([name]) => !writesOnly.has(name) && !CACHE_KEY_HEADERS.includes(name));
    expect(missing).toEqual([]);
    // And x-stub-session, read by its constant (stub/sessions.ts SESSION_HEADER).
    expect(CACHE_KEY_HEADERS).toContain('x-stub-session');
  });
});
