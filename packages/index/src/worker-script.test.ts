import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { startBuiltWorker, stopWorker, WORKER_LOADED } from './worker-script.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-worker-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker script that posts back the Node options it runs with. */
const script = pathToFileURL(join(dir, 'echo-argv.mjs'));
writeFileSync(script, "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage(process.execArgv);\n");

function execArgvOf(worker: Worker): Promise<string[]> {
  return new Promise((resolve, reject) => {
    worker.once('message', (argv: string[]) => resolve(argv));
    worker.once('error', reject);
  });
}

describe('startBuiltWorker', () => {
  it('starts a worker when the process has options a worker refuses (node --max-old-space-size=… agentdash)', async () => {
    const worker = startBuiltWorker(script, {}, [
      '--max-old-space-size=4096',
      '--enable-source-maps',
      '--stack-size=2000',
    ]);
    const argv = await execArgvOf(worker);
    await worker.terminate();
    // The options a worker takes are kept; those Node refuses are left to the process, which has them already.
    expect(argv).toEqual(['--enable-source-maps']);
  });

  it('keeps the options a worker takes when a refused one holds ", " (Node lists the refused ones joined by it)', async () => {
    const worker = startBuiltWorker(script, {}, ['--title=agentdash, index', '--enable-source-maps']);
    const argv = await execArgvOf(worker);
    await worker.terminate();
    expect(argv).toEqual(['--enable-source-maps']);
  });

  it('passes every option on when the worker takes them all', async () => {
    const worker = startBuiltWorker(script, {}, ['--enable-source-maps', '--no-warnings']);
    expect(await execArgvOf(worker)).toEqual(['--enable-source-maps', '--no-warnings']);
    await worker.terminate();
  });
});

/*
 * A module graph holding a top-level await, as every worker's is (`@agentdash/core` loads its parsers so): the entry
 * imports `tla.mjs`, which awaits an import; the entry's own body then runs for a while before announcing itself.
 * Terminating the thread during that body aborts the whole process on Node.js 26 (V8 `Check failed: !is_null()`).
 */
writeFileSync(join(dir, 'leaf.mjs'), 'export const leaf = 1;\n');
writeFileSync(join(dir, 'tla.mjs'), "export const { leaf } = await import('./leaf.mjs');\n");
const slowEntry = pathToFileURL(join(dir, 'slow-entry.mjs'));
writeFileSync(
  slowEntry,
  [
    "import { parentPort } from 'node:worker_threads';",
    "import { leaf } from './tla.mjs';",
    `import { announceLoaded } from ${JSON.stringify(new URL('../dist/worker-script.js', import.meta.url).href)};`,
    "parentPort.postMessage('evaluating');",
    'const start = Date.now();',
    'while (Date.now() - start < 300);',
    'announceLoaded();',
    '',
  ].join('\n'),
);
const failingEntry = pathToFileURL(join(dir, 'failing-entry.mjs'));
writeFileSync(failingEntry, "import { leaf } from './tla.mjs';\nthrow new Error('cannot load ' + leaf);\n");

/** A fallback wait longer than any test may take (setTimeout's largest delay). */
const NEVER = 2 ** 31 - 1;

describe('stopWorker', () => {
  it('lets a thread finish evaluating its modules before terminating it', async () => {
    const worker = startBuiltWorker(slowEntry);
    const seen: unknown[] = [];
    worker.on('message', (message: unknown) => seen.push(message));
    await once(worker, 'message');
    // Asked while the entry's body runs, after the awaited import: the thread ends only once it has announced itself.
    await stopWorker(worker, NEVER);
    expect(seen).toEqual(['evaluating', WORKER_LOADED]);
  });

  it('does not wait for a thread that failed to load', async () => {
    const worker = startBuiltWorker(failingEntry);
    const failed = once(worker, 'error');
    const [error] = (await failed) as [Error];
    expect(error.message).toBe('cannot load 1');
    // No fallback wait: only the thread's exit can settle this, else the test times out.
    await stopWorker(worker, NEVER);
  });

  it("is announced by the index's parse worker, so stopping one never waits for the fallback", async () => {
    const worker = startBuiltWorker(new URL('../dist/write/parse-worker.js', import.meta.url));
    const [message] = (await once(worker, 'message')) as [unknown];
    expect(message).toBe(WORKER_LOADED);
    await stopWorker(worker, NEVER);
  });
});
