/** The main thread's side of the OTLP worker thread (`otlp-worker.ts`): requests in, outcomes back, in order. */
import type { Worker } from 'node:worker_threads';
import { startBuiltWorker, stopWorker, workerScript } from '../worker-script.js';
import type { IngestAnswer, IngestOutcome, IngestRequest } from './ingest.js';

/** Requests waiting for the worker at most; past it the exporter is told to retry (503), so memory stays bounded. */
export const OTLP_MAX_QUEUED = 16;

export interface IngestWorker {
  ingest(request: IngestRequest): Promise<IngestOutcome>;
  close(): Promise<void>;
}

const busy: IngestOutcome = { ok: false, status: 503, reason: 'telemetry receiver busy; retry' };

/** A worker storing into the index file at `dbPath`; undefined when the worker script is not built. */
export function startIngestWorker(dbPath: string): IngestWorker | undefined {
  const script = workerScript('otlp-worker.js');
  if (script === undefined) return undefined;
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, (outcome: IngestOutcome) => void>();
  const failAll = () => {
    for (const done of waiting.values()) done(busy);
    waiting.clear();
  };
  const started = (): Worker => {
    if (worker) return worker;
    const w = startBuiltWorker(script, { workerData: { dbPath } });
    w.on('message', (answer: IngestAnswer) => {
      waiting.get(answer.id)?.(answer.outcome);
      waiting.delete(answer.id);
    });
    // A worker that failed (its database could not be opened) is started again for the next request.
    w.on('error', () => undefined);
    w.on('exit', () => {
      if (worker === w) worker = undefined;
      failAll();
    });
    w.unref();
    worker = w;
    return w;
  };
  return {
    ingest: (request) => {
      if (waiting.size >= OTLP_MAX_QUEUED) return Promise.resolve(busy);
      const id = nextId++;
      return new Promise<IngestOutcome>((resolve) => {
        waiting.set(id, resolve);
        // The body's bytes move to the worker (no copy); the request does not read them again.
        const body = request.body;
        const transfer = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? [body.buffer] : [];
        started().postMessage({ id, request }, transfer as ArrayBuffer[]);
      });
    },
    close: async () => {
      const w = worker;
      worker = undefined;
      failAll();
      if (w) await stopWorker(w);
    },
  };
}
