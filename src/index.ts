/**
 * The package's entry: the service's generated types for frontends (`import type { Desk } from
 * 'workplace-admin-stub'`), and the stub and checker for programs that embed them.
 */
export type { components, Desk, DeskList, ErrorBody, ListEnvelope, operations, Page, paths, Schemas, StoredDesk } from './types.js';
export { buildApp, type StateHolder } from './app.js';
export { resolveConfig, DEFAULTS, type StubConfig } from './config.js';
export { loadState, stateOptions, type StubState } from './state.js';
export { runCheck, exitCode, type CheckOptions, type CheckReport } from './contract/checker.js';
export { loadContract } from './contract/load.js';
