import { mkdir, readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_COLLECTIONS, FIXTURES, listen, makeApp } from '../helpers.js';
import { ROOT } from '../cli-helpers.js';
import { launchChromium, requireChromium, SKIP_BROWSER } from '../chromium.js';

/** The desks the deployment lists: the fixture's active ones. */
async function activeDesks(): Promise<number> {
  const desks = JSON.parse(await readFile(`${FIXTURES}/desk.json`, 'utf8')) as { active: boolean }[];
  return desks.filter((d) => d.active).length;
}

describe.skipIf(SKIP_BROWSER)(
  '/docs in a real browser: the API reference, rendered offline from the served spec',
  () => {
    let app: FastifyInstance;
    let base: string;
    let browser: Browser;
    beforeAll(async () => {
      requireChromium();
      app = await makeApp();
      base = await listen(app);
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    it('shows every operation and the desk schema, tries a request against the stub, and saves a screenshot', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 2200 } });
      const offsite: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(base)) offsite.push(r.url());
      });
      await page.goto(`${base}/docs`);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      const paths = await page.$$eval('.opblock-summary-path', (els) =>
        els.map((e) => e.getAttribute('data-path') ?? e.textContent ?? ''),
      );
      for (const resource of DOCUMENT_COLLECTIONS) expect(paths).toContain(`/api/v1/${resource}`);
      expect(paths).toContain('/api/v1/desk/{pk}');
      // OpenAPI 3.1 schemas render as JSON Schema 2020-12 models; open the Desk model whole.
      const desk = page.locator('section.models article[data-json-schema-level="0"]', {
        has: page.locator('strong.json-schema-2020-12__title', { hasText: /^Desk$/ }),
      });
      await desk.locator('.json-schema-2020-12-expand-deep-button').first().click();
      const deskModel = await desk.innerText();
      for (const field of ['url', 'pk', 'building', 'floor', 'number', 'active', 'lead', 'ergonomic', 'held_today'])
        expect(deskModel).toContain(field);
      // The building's choices as the deployment's model has them, and the number's max_length.
      expect(deskModel).toMatch(/building[\s\S]*Enum[\s\S]*#0"S"\s*#1"P"/);
      expect(deskModel).toContain('≤ 10 characters');

      await page.click('#operations-Desks-listDesks .opblock-summary');
      const op = page.locator('#operations-Desks-listDesks');
      const tryOut = op.locator('button.try-out__btn');
      if ((await tryOut.count()) > 0 && /try it out/i.test(await tryOut.innerText())) await tryOut.click();
      await op.locator('button.execute').click();
      await op.locator('.live-responses-table tr.response .response-col_status').first().waitFor({ timeout: 15_000 });
      expect(
        (await op.locator('.live-responses-table tr.response .response-col_status').first().innerText()).trim(),
      ).toBe('200');
      expect(await op.locator('.live-responses-table .highlight-code').first().innerText()).toMatch(
        new RegExp(`"count": ${await activeDesks()},`),
      );

      await mkdir(`${ROOT}test-output`, { recursive: true });
      await page.screenshot({ path: `${ROOT}test-output/docs.png`, fullPage: false });
      expect(offsite).toEqual([]);
    }, 60_000);
  },
);
