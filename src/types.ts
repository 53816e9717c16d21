/**
 * The service's types, from the generated file (never written twice by hand). Frontends import
 * these; the stub, the checker and the tests use them.
 */
import type { components, operations, paths } from './generated/openapi.js';

export type { components, operations, paths };
export type Schemas = components['schemas'];
export type Desk = Schemas['Desk'];
export type ListEnvelope = Schemas['ListEnvelope'];
/** One page of a collection of `T`, as every `<Item>List` schema of the spec is. */
export type Page<T> = ListEnvelope & { results: T[] };
export type DeskList = Schemas['DeskList'];
export type ErrorBody = Schemas['Error'];
/** A desk as a fixture stores it: its url is built per request from the deployment (§9.2). */
export type StoredDesk = Omit<Desk, 'url'>;
