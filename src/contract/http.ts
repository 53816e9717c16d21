/** One GET of the checker: never throws; a transport failure is a value to report. */
export type Fetched =
  | { ok: true; status: number; contentType: string; text: string; ms: number }
  | { ok: false; error: string; code: string | undefined; ms: number };

/** Codes that mean nothing answers at that address at all (exit 2), not a broken deployment. */
export const UNREACHABLE_CODES = new Set(['BAD_PORT', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

export async function fetchText(url: string, headers: Readonly<Record<string, string>>, timeoutMs: number): Promise<Fetched> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, {
      headers: { accept: 'application/json', ...headers },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    return { ok: true, status: res.status, contentType: res.headers.get('content-type') ?? '', text, ms: ms() };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return { ok: false, error: `no answer within ${timeoutMs} ms`, code: 'TIMEOUT', ms: ms() };
    // fetch refuses the ports browsers block (6000, 9, …) with a bare 'bad port'.
    const code = err.cause?.code ?? (err as { code?: string }).code ?? (err.cause?.message === 'bad port' ? 'BAD_PORT' : undefined);
    return { ok: false, error: `${err.cause?.message ?? err.message}${code ? ` (${code})` : ''}`, code, ms: ms() };
  }
}

/** Runs `work` over `items` with at most `limit` at once, results in input order. */
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T, i);
    }
  });
  await Promise.all(lanes);
  return out;
}
