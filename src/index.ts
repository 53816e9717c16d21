/**
 * The package's entry: the service's generated types for frontends (`import type { Desk } from
 * 'workplace-admin-stub'`) and the isomorphic core (no Node API: it runs in a browser too). Its
 * declarations reach no Node or Fastify type. The other entries: `/types` (the types alone),
 * `/fetch` and `/msw` (the handlers), also in `workplace-admin-stub-client` (packages/client, the
 * same built files); `/server` (the HTTP server and loading, Node) and `/check` (the contract
 * checker, Node), in `workplace-admin-stub` only.
 */
export type {
  components,
  Desk,
  DeskList,
  ErrorBody,
  ListEnvelope,
  operations,
  Page,
  paths,
  Schemas,
  StoredDesk,
} from './types.js';
export { type CoreAnswer, type CoreOptions, type CoreRequest, StubCore } from './core/answer.js';
export { compileSnapshot, type Model } from './core/model.js';
export type {
  CollectionAccess,
  Handler,
  HandlerAnswer,
  HandlerContext,
  HandlerRequest,
  HandlerResult,
  Handlers,
} from './core/stub/handler-types.js';
export { asSnapshot, SNAPSHOT_FORMAT, type Snapshot, type SnapshotCollection } from './core/snapshot.js';
