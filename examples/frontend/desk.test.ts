// A frontend's vitest test against the stub's answers, in-process with MSW: no server to start.
// (Run as a user runs it by test/package/pack.test.ts, in a project that installed the package.)
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Desk, DeskList } from 'workplace-admin-stub';
import { createHandlers } from 'workplace-admin-stub/msw';

const server = setupServer(...createHandlers({ pageSize: 10 }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

it('lists the desks, page by page, with urls of the origin called', async () => {
  const list = (await (await fetch('http://localhost:5173/api/v1/desk?format=api')).json()) as DeskList;
  expect(list.results).toHaveLength(10);
  expect(list.count).toBeGreaterThan(10);
  expect(list.previous).toBeNull();
  expect(list.next).toBe('http://localhost:5173/api/v1/desk?format=api&page=2');
});

it('fetches a desk at its url, the same as listed; an unknown one is 404', async () => {
  const list = (await (await fetch('http://localhost:5173/api/v1/desk?format=api')).json()) as DeskList;
  const listed = list.results[3] as Desk;
  const res = await fetch(listed.url);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual(listed);
  const missing = await fetch('http://localhost:5173/api/v1/desk/999999');
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ detail: 'No Desk matches the given query.' });
});

it('shows the empty state and an error, as the screens must handle them', async () => {
  const empty = await fetch('http://localhost:5173/api/v1/desk', { headers: { prefer: 'empty=true' } });
  expect(await empty.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
  const page = await fetch('http://localhost:5173/api/v1/desk?page=99');
  expect(page.status).toBe(404);
  expect(await page.json()).toEqual({ detail: 'Invalid page.' });
});
