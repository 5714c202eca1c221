/*
 * Every worker thread the server starts announces that its modules are evaluated (`announceLoaded`), so stopping one
 * never lands inside the evaluation of a graph holding a top-level await (which aborts the process on Node.js 26)
 * and never waits for the fallback either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndex, startBuiltWorker, stopWorker, WORKER_LOADED } from '@agentdash/index';
import { afterAll, describe, expect, it } from 'vitest';
import { workerScript } from './worker-script.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-worker-scripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dbPath = join(dir, 'index.sqlite');
openIndex({ dbPath }).close();

/** A fallback wait longer than any test may take: only the announcement or the thread's exit ends a stop. */
const NEVER = 2 ** 31 - 1;

describe('the server’s worker threads', () => {
  it.each([
    ['session-worker.js', { dbPath, cacheShare: 1, role: 'sessions', redact: false }],
    ['otlp-worker.js', { dbPath }],
    ['watch-worker.js', { paths: [dir] }],
  ])('%s announces that its modules are evaluated', async (name, workerData) => {
    const script = workerScript(name);
    expect(script, `${name} is built`).toBeDefined();
    const worker = startBuiltWorker(script as URL, { workerData });
    const failed = new Promise<never>((_, reject) => worker.once('error', reject));
    const loaded = new Promise<void>((resolve) =>
      worker.on('message', (message: unknown) => {
        if (message === WORKER_LOADED) resolve();
      }),
    );
    await Promise.race([loaded, failed]);
    await stopWorker(worker, NEVER);
  });
});
