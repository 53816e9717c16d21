import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, requireChromium, SKIP_BROWSER } from '../chromium.js';
import { ROOT } from '../cli-helpers.js';

/**
 * The MSW handlers in a real browser (issue #12 §3): the adapters bundled for the browser (esbuild,
 * platform browser: a Node built-in anywhere in the graph fails the build), MSW's service worker,
 * and a page that fetches the service's paths from its own origin, with no server behind them.
 */

// The page's script: the README's browser example, then what a screen would fetch.
const PAGE_SCRIPT = `
import { setupWorker } from 'msw/browser';
import { createHandlers } from './src/adapters/msw.ts';
const out = {};
try {
  await setupWorker(...createHandlers({ pageSize: 10 })).start({ onUnhandledRequest: 'bypass', quiet: true });
  const list = await fetch('/api/v1/desk?format=api');
  out.list = { status: list.status, type: list.headers.get('content-type'), body: await list.json() };
  const detail = await fetch(out.list.body.results[2].url);
  out.detail = { status: detail.status, body: await detail.json() };
  const empty = await fetch('/api/v1/desk', { headers: { prefer: 'empty=true' } });
  out.empty = await empty.json();
  out.other = (await fetch('/not-the-service')).status;
} catch (e) {
  out.error = String(e && e.stack || e);
}
window.__result = out;
`;

describe.skipIf(SKIP_BROWSER)(
  "the MSW handlers in the browser: setupWorker(...createHandlers()), urls of the page's origin",
  () => {
    let server: Server;
    let origin: string;
    let browser: Browser;
    let bundle: string;

    beforeAll(async () => {
      requireChromium();
      const result = await build({
        stdin: { contents: PAGE_SCRIPT, resolveDir: ROOT, sourcefile: 'page.ts', loader: 'ts' },
        bundle: true,
        write: false,
        platform: 'browser',
        format: 'esm',
        target: 'es2022',
        logLevel: 'silent',
      });
      bundle = result.outputFiles[0]?.text ?? '';
      const worker = await readFile(path.join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'));
      const files: Record<string, [string, string | Buffer]> = {
        '/': ['text/html', '<!doctype html><title>app</title><script type="module" src="/app.js"></script>'],
        '/app.js': ['text/javascript', bundle],
        '/mockServiceWorker.js': ['text/javascript', worker],
      };
      server = createServer((req, res) => {
        const file = files[req.url ?? ''];
        res.writeHead(file ? 200 : 404, { 'content-type': file ? file[0] : 'text/plain' });
        res.end(file ? file[1] : 'nothing here');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => server?.close(resolve));
    });

    it('bundles for the browser: no Node built-in, the bundled spec and fixtures inside', () => {
      expect(bundle).not.toMatch(/from ?["']node:/);
      expect(bundle).toContain('workplace-admin-stub/snapshot@1');
    });

    it("answers the page's requests from the worker, with the page's origin in every url", async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(origin);
      await page.waitForFunction(
        () => (globalThis as unknown as { __result?: unknown }).__result !== undefined,
        undefined,
        { timeout: 30_000 },
      );
      const result = (await page.evaluate(() => (globalThis as unknown as { __result: unknown }).__result)) as {
        error?: string;
        list: {
          status: number;
          type: string;
          body: { count: number; next: string; results: { url: string; pk: number }[] };
        };
        detail: { status: number; body: { url: string; pk: number } };
        empty: unknown;
        other: number;
      };
      expect(result.error, result.error).toBeUndefined();
      expect(errors).toEqual([]);
      expect(result.list.status).toBe(200);
      expect(result.list.type).toBe('application/json');
      expect(result.list.body.next).toBe(`${origin}/api/v1/desk?format=api&page=2`);
      expect(result.list.body.results).toHaveLength(10);
      expect(result.detail).toEqual({ status: 200, body: result.list.body.results[2] });
      expect(result.detail.body.url).toBe(`${origin}/api/v1/desk/${result.detail.body.pk}?format=api`);
      expect(result.empty).toEqual({ count: 0, next: null, previous: null, results: [] });
      // Not the service's: MSW leaves it to the network (the page's server answers 404).
      expect(result.other).toBe(404);
      await page.close();
    });
  },
);
