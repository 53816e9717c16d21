import { mkdir } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli-helpers.js';
import { listen, makeApp } from '../helpers.js';
import { launchChromium, requireChromium, SKIP_BROWSER } from '../chromium.js';

/** The app under test: plain requests to the service, as a frontend sends them. */
async function appGet(base: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers: { accept: 'application/json', ...headers } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe.skipIf(SKIP_BROWSER)('the control page /__stub/ in a real browser', () => {
  let app: FastifyInstance;
  let base: string;
  let browser: Browser;
  let page: Page;
  const offsite: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireChromium();
    app = await makeApp();
    base = await listen(app);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('request', (r) => {
      if (!r.url().startsWith(base)) offsite.push(r.url());
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${base}/__stub/`);
    await page.waitForSelector('select[data-operation="listDesks"]', { timeout: 30_000 });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const switchOf = (operationId: string) => page.locator(`select[data-operation="${operationId}"]`);
  /** The journal row of the app's last request to a url, once the page has polled it in. */
  const journalRow = (url: string) => page.locator('#journal tr', { hasText: url }).first();

  it("lists every operation of the spec with where its answers come from, fetching nothing but the stub's", async () => {
    const { operations } = (await (await fetch(`${base}/__stub/operations`)).json()) as {
      operations: { operationId: string; source: string }[];
    };
    expect(await page.locator('#operations tr').count()).toBe(operations.length);
    const desks = page.locator('#operations tr[data-operation="listDesks"]');
    await expect.poll(() => desks.textContent()).toContain('/api/v1/desk');
    expect(await desks.textContent()).toContain('collection');
    // The mealstop item is answered by the deployment's handler first.
    expect(await page.locator('#operations tr[data-operation="getMealStop"]').textContent()).toContain(
      'handler, else collection',
    );
    // A list offers its empty state; an item does not.
    expect(await switchOf('listDesks').locator('option[value="empty=true"]').count()).toBe(1);
    expect(await switchOf('getDesk').locator('option[value="empty=true"]').count()).toBe(0);
    // The filter narrows the table to what matches every word.
    await page.locator('#filter').fill('desk get');
    const shown = await page
      .locator('#operations tr:not([hidden])')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-operation')));
    expect(shown).toEqual(expect.arrayContaining(['listDesks', 'getDesk', 'listDeskReservations']));
    expect(shown).not.toContain('createDesk');
    await page.locator('#filter').fill('');
    expect(await page.locator('#operations tr[hidden]').count()).toBe(0);
    expect(offsite).toEqual([]);
  });

  it("a switch set on the page changes what the app's next request gets, and the request shows in the journal", async () => {
    const before = await appGet(base, '/api/v1/desk');
    expect(before.status).toBe(200);
    expect(before.body.count).toBe(190);

    await switchOf('listDesks').selectOption('empty=true');
    await page.locator('tr.switched[data-operation="listDesks"]').waitFor();
    const empty = await appGet(base, '/api/v1/desk?page=1');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ count: 0, results: [] });
    const row = journalRow('/api/v1/desk?page=1');
    await row.waitFor({ timeout: 5_000 });
    expect(await row.textContent()).toContain('empty=true (switch)');

    // The deployment's 401 to a bad token, on demand: its body and header.
    await switchOf('listDesks').selectOption('code=401');
    await expect.poll(() => page.locator('#status').textContent()).toContain('listDesks: code=401');
    const denied = await appGet(base, '/api/v1/desk?page=2');
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ detail: 'Invalid token.' });
    expect(denied.headers.get('www-authenticate')).toBe('Token');
    await journalRow('/api/v1/desk?page=2').waitFor({ timeout: 5_000 });
    expect(await journalRow('/api/v1/desk?page=2').locator('td.s4').textContent()).toBe('401');

    await mkdir(`${ROOT}test-output`, { recursive: true });
    await page.screenshot({ path: `${ROOT}test-output/control-page.png`, fullPage: false });

    // Back to the declared answer; other operations were never touched.
    await switchOf('listDesks').selectOption('');
    await expect.poll(() => page.locator('tr.switched').count()).toBe(0);
    expect((await appGet(base, '/api/v1/desk')).body.count).toBe(190);
    expect(((await (await fetch(`${base}/__stub/scenarios`)).json()) as { scenarios: unknown[] }).scenarios).toEqual(
      [],
    );
  });

  it('a slow switch delays the answer, and reset puts every switch back', async () => {
    await switchOf('getDesk').selectOption('delay=2000');
    await page.locator('tr.switched[data-operation="getDesk"]').waitFor();
    const started = Date.now();
    const slow = await appGet(base, '/api/v1/desk/12');
    expect(slow.status).toBe(200);
    // A delay, not a timing assertion of speed: the answer cannot come before the time asked for.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);

    await page.locator('#reset').click();
    await expect.poll(() => page.locator('tr.switched').count()).toBe(0);
    expect(await switchOf('getDesk').inputValue()).toBe('');
    const started2 = Date.now();
    expect((await appGet(base, '/api/v1/desk/12')).status).toBe(200);
    expect(Date.now() - started2).toBeLessThan(1_900);
  });

  it("with a session named, the page watches and switches that client's state only", async () => {
    await page.locator('#session').fill('worker-1');
    await page.locator('#session').dispatchEvent('change');
    await page.waitForSelector('select[data-operation="listDesks"]');
    await switchOf('listDesks').selectOption('code=500');
    await page.locator('tr.switched[data-operation="listDesks"]').waitFor();
    // The shared state is untouched; the session's client gets the switch.
    expect((await appGet(base, '/api/v1/desk?shared')).status).toBe(200);
    const inSession = await fetch(`${base}/api/v1/desk?mine`, { headers: { 'x-stub-session': 'worker-1' } });
    expect(inSession.status).toBe(500);
    // The session's journal shows its own request, not the shared one.
    await journalRow('/api/v1/desk?mine').waitFor({ timeout: 5_000 });
    expect(await page.locator('#journal tr', { hasText: '/api/v1/desk?shared' }).count()).toBe(0);

    expect(pageErrors).toEqual([]);
    expect(offsite).toEqual([]);
  });

  it("a poll of the journal asked before the session changed is let go: its rows and ids are another journal's", async () => {
    // The next poll of the shared journal is held at the browser until the page watches another session.
    let held!: () => void;
    const polled = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.locator('#session').fill('');
    await page.locator('#session').dispatchEvent('change');
    await page.route('**/__stub/requests?*', async (route) => {
      if (route.request().headers()['x-stub-session'] === undefined) {
        held();
        await released;
      }
      await route.continue();
    });
    await polled;
    expect((await appGet(base, '/api/v1/desk?shared-late')).status).toBe(200);
    await page.locator('#session').fill('worker-2');
    await page.locator('#session').dispatchEvent('change');
    await page.waitForSelector('select[data-operation="listDesks"]');
    release();
    const own = await fetch(`${base}/api/v1/desk?worker-2-own`, { headers: { 'x-stub-session': 'worker-2' } });
    expect(own.status).toBe(200);
    await journalRow('/api/v1/desk?worker-2-own').waitFor({ timeout: 5_000 });
    expect(await page.locator('#journal tr', { hasText: '/api/v1/desk?shared-late' }).count()).toBe(0);
    await page.unrouteAll();
    expect(pageErrors).toEqual([]);
  });

  it("switches read before the session changed are let go: the page shows the new session's", async () => {
    await page.locator('#session').fill('');
    await page.locator('#session').dispatchEvent('change');
    await page.waitForSelector('select[data-operation="listDesks"]');
    // The shared state's switches are read again after a switch is set; that read is held.
    let held!: () => void;
    const asked = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    await page.route('**/__stub/scenarios', async (route) => {
      if (holding && route.request().method() === 'GET' && !route.request().headers()['x-stub-session']) {
        holding = false;
        held();
        await released;
      }
      await route.continue();
    });
    await switchOf('listDesks').selectOption('code=500');
    await asked;
    await page.locator('#session').fill('worker-3');
    await page.locator('#session').dispatchEvent('change');
    await page.waitForSelector('select[data-operation="listDesks"]');
    await expect.poll(() => page.locator('tr.switched').count()).toBe(0);
    const late = page.waitForResponse(
      (r) => r.url().endsWith('/__stub/scenarios') && !r.request().headers()['x-stub-session'],
    );
    release();
    await late;
    // The shared read's answer has come: worker-3 has no switch, and none is shown.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(await page.locator('tr.switched').count()).toBe(0);
    await page.unrouteAll();
    await fetch(`${base}/__stub/scenarios`, { method: 'DELETE' });
    expect(pageErrors).toEqual([]);
  });
});
