/**
 * The OTLP receiver's worker thread: decodes each export request and stores its records on a connection of its own,
 * so a large or slow body never holds the server's event loop (the dashboard keeps answering meanwhile).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { announceLoaded, openTelemetryWriter } from '@agentdash/index';
import { type IngestAnswer, type IngestMessage, ingestOtlp } from './otlp/ingest.js';

// Its modules are evaluated: the thread may be stopped from now on (`stopWorker`).
announceLoaded();

const { dbPath } = workerData as { readonly dbPath: string };
const writer = openTelemetryWriter(dbPath);

parentPort?.on('message', (message: IngestMessage | { readonly type: 'close' }) => {
  if ('type' in message) {
    writer.close();
    parentPort?.close();
    return;
  }
  const answer: IngestAnswer = { id: message.id, outcome: ingestOtlp(message.request, writer.store) };
  parentPort?.postMessage(answer);
});
