/**
 * A worker thread's announcement that its modules are evaluated (`stopWorker` in `worker-script.ts` waits for it).
 * Only Node's own modules here: a worker script that loads nothing of the index (the file watcher) imports this one.
 */
import { parentPort } from 'node:worker_threads';

/** The message a worker thread posts once its modules are evaluated (a string no protocol's messages are). */
export const WORKER_LOADED = 'agentdash:worker-loaded';

/**
 * Called once at the top level of a worker script: tells the thread that started it that every module is evaluated.
 * Posted on the next turn of the event loop, after the evaluation of the script's own module has settled.
 */
export function announceLoaded(): void {
  const port = parentPort;
  if (port !== null) setImmediate(() => port.postMessage(WORKER_LOADED));
}
