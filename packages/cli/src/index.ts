/**
 * agentdash: the command line. `run(argv, io)` runs one command and returns its exit code.
 * @module
 */
export { classify, ExitCode, UsageError } from './errors.js';
export type { CliIo, TextOut } from './io.js';
export type * from './output/json-types.js';
export { commands, run, VERSION } from './run.js';
