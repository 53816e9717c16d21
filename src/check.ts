/**
 * The contract checker, for programs (Node only): `workplace-admin-stub/check`. Load the spec once,
 * then check any deployment: `runCheck(await loadContract(specFile), options)`.
 */
export { type CheckOptions, type CheckReport, type EndpointResult, exitCode, runCheck } from './contract/checker.js';
export { type Contract, loadContract } from './contract/load.js';
