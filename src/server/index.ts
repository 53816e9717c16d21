/** The stub's HTTP server for programs that embed it: `workplace-admin-stub/server`. */
export { buildApp, coreOptions, type StateHolder } from './app.js';
export { DEFAULTS, resolveConfig, stateOptions, type StubConfig } from './config.js';
export { serve } from './serve.js';
export { loadState, type StubState } from '../load/state.js';
