/** Worker thread entry: watches `workerData.paths` and posts the changed files, 100 ms after the first of a burst. */
import { parentPort, workerData } from 'node:worker_threads';
import { announceLoaded } from '@agentdash/index/worker-loaded';
import { watchSources } from './watch-sources.js';

const port = parentPort;
if (port === null) throw new Error('watch-worker.js runs as a worker thread');
// Its modules are evaluated: the thread may be stopped from now on (`stopWorker`).
announceLoaded();
const { paths } = workerData as { paths: string[] };
let batch = new Set<string>();
let timer: NodeJS.Timeout | undefined;
const watchers = watchSources(paths, (file) => {
  batch.add(file);
  timer ??= setTimeout(() => {
    timer = undefined;
    const files = [...batch];
    batch = new Set();
    port.postMessage({ type: 'changed', files });
  }, 100);
});
port.postMessage({ type: 'ready' });
// The listener keeps this thread alive (the watchers do not); 'close' stops it.
port.on('message', (message: { type: string }) => {
  if (message.type !== 'close') return;
  for (const w of watchers) w.close();
  if (timer) clearTimeout(timer);
  port.close();
});
