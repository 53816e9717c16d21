import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../../src/adapters/fetch.js';
import { createHandlers, createHandlersWith } from '../../../src/adapters/msw.js';

/** The status msw's handlers answer a request with, or undefined when none of them matches it. */
async function statusOf(handlers: ReturnType<typeof createHandlers>, url: string, init?: RequestInit) {
  return (await getResponse(handlers, new Request(url, init)))?.status;
}

describe('createHandlers: msw handlers for the service’s paths, and only those', () => {
  const anyOrigin = createHandlers();
  it('one handler', () => {
    expect(anyOrigin).toHaveLength(1);
  });

  it.each<[string, number | undefined]>([
    ['http://localhost:5173/api/v1/desk', 200],
    ['https://api.example.org/api/v1/desk/999999', 404],
    ['http://localhost/api/v1/d%65sk', 200],
    ['http://localhost/%61pi/v1/nosuch', 404],
    ['http://localhost/api', 301],
    ['http://localhost/__stub/scenarios', 200],
    ['http://localhost/', undefined],
    ['http://localhost/favicon.ico', undefined],
    ['http://localhost/assets/app.js', undefined],
    ['http://localhost/apix', undefined],
  ])('any origin: %s → %s', async (url, status) => {
    expect(await statusOf(anyOrigin, url)).toBe(status);
  });

  const based = createHandlers({ baseUrl: 'https://api.example.org/workplace' });
  it.each<[string, number | undefined]>([
    ['https://api.example.org/workplace/api/v1/desk', 200],
    ['https://api.example.org/w%6Frkplace/api/v1/desk', 200],
    ['https://api.example.org/workplace/', 302],
    ['https://api.example.org/api/v1/desk', undefined],
    ['https://other.example.org/workplace/api/v1/desk', undefined],
    ['http://api.example.org/workplace/api/v1/desk', undefined],
  ])('on baseUrl’s origin and below its path: %s → %s', async (url, status) => {
    expect(await statusOf(based, url)).toBe(status);
  });

  it('createHandlersWith: the handlers over a fetch handler whose controls the test uses', async () => {
    const stub = createFetchHandler();
    const handlers = createHandlersWith(stub);
    await stub.scenarios.set({ operationId: 'listDesks', prefer: 'code=503' });
    expect(await statusOf(handlers, 'http://localhost/api/v1/desk')).toBe(503);
    expect(stub.requests().map((r) => r.url)).toEqual(['/api/v1/desk']);
  });
});
