/**
 * The stub's HTTP server and the loading of a spec and fixtures, for programs that embed it:
 * `workplace-admin-stub/server` (Node only).
 */
export { buildApp, coreOptions, type StateHolder } from './app.js';
export { type ConfigResult, DEFAULTS, resolveConfig, stateOptions, type StubConfig } from './config.js';
export { serve } from './serve.js';
export { loadState, type StateOptions, type StubState } from '../load/state.js';
