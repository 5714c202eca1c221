/** File watching in a worker thread, so setting up a recursive watch over a huge archive never blocks the server. */
import { startBuiltWorker, stopWorker, workerScript } from './worker-script.js';

export interface WorkerWatch {
  /** Settles when the watchers are set up. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/** Watch `paths` in a worker thread, calling `onChanged` with each burst of changed files; undefined when not built. */
export function watchInWorker(
  paths: readonly string[],
  onChanged: (files: readonly string[]) => void,
): WorkerWatch | undefined {
  const script = workerScript('watch-worker.js');
  if (script === undefined) return undefined;
  const worker = startBuiltWorker(script, { workerData: { paths: [...paths] } });
  worker.unref();
  const ready = new Promise<void>((resolve) => {
    worker.on('message', (message: { type: string; files?: string[] }) => {
      if (message.type === 'ready') resolve();
      else if (message.type === 'changed' && message.files) onChanged(message.files);
    });
    worker.on('exit', () => resolve());
  });
  worker.on('error', (error) => console.error('agentdash: file watcher failed:', error.message));
  return {
    ready,
    close: async () => {
      worker.postMessage({ type: 'close' });
      await stopWorker(worker);
    },
  };
}
