/*
 * Every worker thread the server starts announces that its modules are evaluated (`announceLoaded`), so stopping one
 * never lands inside the evaluation of a graph holding a top-level await (which aborts the process on Node.js 26)
 * and never waits for the fallback either.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex, startBuiltWorker, stopWorker, WORKER_LOADED } from '@agentdash/index';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ESM script without type declarations (it runs under `npm run lint` too)
import { staticSpecifiers } from '../../../scripts/import-cycles.mjs';
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

  it('the file watcher loads none of the index and no parser: only its announcement', () => {
    /** The packages the modules `file` reaches through static relative imports name. */
    const packagesOf = (file: string): string[] => {
      const seen = new Set<string>();
      const named = new Set<string>();
      const visit = (at: string) => {
        if (seen.has(at)) return;
        seen.add(at);
        for (const name of staticSpecifiers(at, readFileSync(at, 'utf8')) as string[]) {
          if (name.startsWith('.')) visit(resolve(dirname(at), name));
          else if (!name.startsWith('node:')) named.add(name);
        }
      };
      visit(file);
      return [...named];
    };
    const built = workerScript('watch-worker.js');
    expect(built).toBeDefined();
    expect(packagesOf(fileURLToPath(built as URL))).toEqual(['@agentdash/index/worker-loaded']);
    // the CLI's bundle (what `agentdash serve` runs): its chunks name no package at all, Node's aside
    const bundled = fileURLToPath(new URL('../../cli/bundle/watch-worker.js', import.meta.url));
    expect(packagesOf(bundled)).toEqual([]);
  });
});
