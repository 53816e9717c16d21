/**
 * A frontend's typed client for the service, end to end from the spec: openapi-fetch with the
 * generated `paths`. Point `baseUrl` at the stub in development and at staging or production later;
 * the same code and types serve all three.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../src/generated/openapi.js';
import type { Desk } from '../src/types.js';

export function workplaceClient(baseUrl: string) {
  return createClient<paths>({ baseUrl });
}

/** Every desk, following the pages the service gives. */
export async function allDesks(baseUrl: string): Promise<Desk[]> {
  const client = workplaceClient(baseUrl);
  const desks: Desk[] = [];
  for (let page = 1; ; page++) {
    const { data, error } = await client.GET('/api/v1/desk', { params: { query: { format: 'api', page } } });
    if (error) throw new Error(`desk list failed: ${error.detail}`);
    desks.push(...data.results);
    if (data.next === null) return desks;
  }
}

/** One desk at its address. */
export async function desk(baseUrl: string, pk: number): Promise<Desk | undefined> {
  const { data } = await workplaceClient(baseUrl).GET('/api/v1/desk/{pk}', {
    params: { path: { pk }, query: { format: 'api' } },
  });
  return data;
}
