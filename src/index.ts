/**
 * The package's entry: the service's generated types for frontends (`import type { Desk } from
 * 'workplace-admin-stub'`), the isomorphic core, and the contract checker.
 */
export type { components, Desk, DeskList, ErrorBody, ListEnvelope, operations, Page, paths, Schemas, StoredDesk } from './types.js';
export { StubCore, type CoreAnswer, type CoreOptions, type CoreRequest } from './core/answer.js';
export { compileSnapshot, type Model } from './core/model.js';
export { SNAPSHOT_FORMAT, type Snapshot, type SnapshotCollection } from './core/snapshot.js';
export { runCheck, exitCode, type CheckOptions, type CheckReport } from './contract/checker.js';
export { loadContract } from './contract/load.js';
