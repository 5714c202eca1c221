/** Locating and starting the server's worker threads (session loading, file watching). */
import { builtWorkerScript } from '@agentdash/index';

export { announceLoaded, startBuiltWorker, stopWorker } from '@agentdash/index';

/** A built worker script beside this module, else the package's dist one (when running from sources). */
export function workerScript(name: string): URL | undefined {
  return builtWorkerScript(name, import.meta.url);
}
