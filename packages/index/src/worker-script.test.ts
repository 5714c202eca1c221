import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { startBuiltWorker } from './worker-script.js';

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
