import { encodeSortedQuery, type QueryMap, withQuery } from '../python/query.js';
import { pythonInt } from '../python/int.js';

/**
 * DRF's PageNumberPagination over Django's Paginator (rest_framework/pagination.py,
 * django/core/paginator.py), with allow_empty_first_page: an empty collection has one page.
 */
export type PageChoice = { ok: true; page: number; numPages: number } | { ok: false };

export function numPages(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/**
 * The page asked for: none or empty means 1, `last` the last page; otherwise the value must be what
 * Python's int() reads, from 1 to the last page (Paginator.validate_number).
 */
export function choosePage(raw: string | undefined, count: number, pageSize: number): PageChoice {
  const pages = numPages(count, pageSize);
  if (raw === undefined || raw === '') return { ok: true, page: 1, numPages: pages };
  if (raw === 'last') return { ok: true, page: pages, numPages: pages };
  // A BigInt: "1" followed by thirty zeros is a number to Python, past every last page.
  const n = pythonInt(raw);
  if (n === undefined || n < 1n || n > BigInt(pages)) return { ok: false };
  return { ok: true, page: Number(n), numPages: pages };
}

/**
 * `get_next_link` / `get_previous_link`: the request's absolute url with `page` replaced (or
 * removed for page 1), every other parameter kept, keys sorted, values quote_plus-encoded.
 */
export function pageLinks(
  absolutePath: string,
  query: QueryMap,
  page: number,
  pages: number,
): { next: string | null; previous: string | null } {
  const link = (n: number): string => {
    const q: QueryMap = new Map(query);
    if (n === 1) q.delete('page');
    else q.set('page', [String(n)]);
    return withQuery(absolutePath, encodeSortedQuery(q));
  };
  return {
    next: page < pages ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
  };
}
