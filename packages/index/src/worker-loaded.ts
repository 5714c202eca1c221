/**
 * A worker thread's announcement that its modules are evaluated (`stopWorker` in `worker-script.ts` waits for it),
 * and its check that it is of its parent's build. Only Node's own modules here and the index's versions (types
 * aside): a worker script that loads nothing of the index (the file watcher) imports this one.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DERIVED_VERSION, SCHEMA_VERSION } from './schema/schema-version.js';

/** The message a worker thread posts once its modules are evaluated (a string no protocol's messages are). */
export const WORKER_LOADED = 'agentdash:worker-loaded';

/**
 * What a worker thread must share with the thread that started it: the index's two versions. A worker script is
 * loaded from disk when the thread starts, so one started after AgentDash was upgraded in place (its files replaced
 * while a `serve` ran) is the new build: opening the index, it would rebuild the derived tables in the new shape
 * under a process that reads and writes the old one (the dashboard then empty, or its rows mixed).
 */
export const BUILD_STAMP = `index schema ${SCHEMA_VERSION}, derived data ${DERIVED_VERSION}`;
/** The `workerData` field `startBuiltWorker` passes the parent's `BUILD_STAMP` in. */
export const BUILD_STAMP_FIELD = 'agentdashBuild';

/**
 * Called once at the top level of a worker script, before it opens anything: throws (the thread fails, its parent
 * told why) when the parent is of another build; else tells the thread that started it that every module is
 * evaluated, on the next turn of the event loop, after the evaluation of the script's own module has settled.
 */
export function announceLoaded(): void {
  const parents = (workerData as Record<string, unknown> | null | undefined)?.[BUILD_STAMP_FIELD];
  if (typeof parents === 'string' && parents !== BUILD_STAMP) {
    throw Object.assign(
      new Error(
        `AgentDash's files changed while it ran (upgraded in place?): this process is of ${parents}, its worker ` +
          `script of ${BUILD_STAMP}; restart this AgentDash (the index is left as it is)`,
      ),
      { code: 'INDEX_UNAVAILABLE' },
    );
  }
  const port = parentPort;
  if (port !== null) setImmediate(() => port.postMessage(WORKER_LOADED));
}
