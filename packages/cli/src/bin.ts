#!/usr/bin/env node
import { CannotWriteError } from './errors.js';
import { asksJson, reportError, run } from './run.js';

// A closed pipe (`agentdash sessions | head`) is a normal way to stop reading, not an error. Output that cannot be
// written (`> /dev/full`, a full disk) is said as `export -o` says a file it cannot write: one line, exit 3.
for (const [stream, name] of [
  [process.stdout, 'the standard output'],
  [process.stderr, 'the standard error'],
] as const) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    const argv = process.argv.slice(2);
    if (stream === process.stderr) process.exit(3);
    process.exit(reportError(process, new CannotWriteError(name, error), { json: asksJson(argv), verbose: false }));
  });
}

process.exitCode = await run(process.argv.slice(2));
