/**
 * agentdash: the command line. `run(argv, io)` runs one command and returns its exit code.
 * @module
 */

export { commands } from './commands/all.js';
export { classify, ExitCode, UsageError } from './errors.js';
export type { CliIo, TextOut } from './io.js';
export type * from './output/json-types.js';
export { run, VERSION } from './run.js';
