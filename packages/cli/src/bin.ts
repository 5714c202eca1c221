#!/usr/bin/env node
import { run } from './run.js';

// A closed pipe (`agentdash sessions | head`) is a normal way to stop reading, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await run(process.argv.slice(2));
