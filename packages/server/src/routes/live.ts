/** `GET /api/events`: live updates over SSE (`hello`, `session-updated`, `sessions-changed`, `index-progress`, `ping`). */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { LiveMessage } from '../api-types.js';
import type { AppServices } from '../app-services.js';

/**
 * A live message's JSON, serialized once for every open event stream (50 dashboards get one change: one
 * serialization, not 50 and a parse each).
 */
const sseTexts = new WeakMap<LiveMessage, string>();
export function sseData(message: LiveMessage): string {
  let text = sseTexts.get(message);
  if (text === undefined) {
    text = JSON.stringify(message);
    sseTexts.set(message, text);
  }
  return text;
}

export function liveRoutes(services: AppServices) {
  const events = services.deps.events;
  return new Hono().get('/events', (c) =>
    streamSSE(c, async (stream) => {
      const queue: LiveMessage[] = [];
      let wake: (() => void) | undefined;
      let open = true;
      const end = () => {
        open = false;
        wake?.();
      };
      const unsubscribe = events?.subscribe((message) => {
        // A stream that reads slowly holds each distinct change once (and the latest progress), never a backlog.
        const text = sseData(message);
        const same = queue.findIndex(
          (m) => sseData(m) === text || (m.type === 'index-progress' && m.type === message.type),
        );
        if (same >= 0) queue.splice(same, 1);
        queue.push(message);
        wake?.();
      }, end);
      stream.onAbort(end);
      try {
        await stream.writeSSE({ event: 'hello', data: JSON.stringify({ type: 'hello' }) });
        // A tab opened mid-build sees where the build is at once.
        const index = services.indexStatus();
        if (index.state === 'indexing') {
          await stream.writeSSE({ event: 'index-progress', data: JSON.stringify({ type: 'index-progress', index }) });
        }
        while (open) {
          if (queue.length === 0) {
            // The ping timer must neither keep the process alive nor outlive a wake-up (shutdown within a second).
            let ping: NodeJS.Timeout | undefined;
            await new Promise<void>((resolve) => {
              wake = resolve;
              ping = setTimeout(resolve, 25_000);
              ping.unref();
            });
            clearTimeout(ping);
            wake = undefined;
          }
          if (!open) break;
          if (queue.length === 0) {
            await stream.writeSSE({ event: 'ping', data: '{}' });
            continue;
          }
          while (queue.length > 0) {
            const message = queue.shift()!;
            await stream.writeSSE({ event: message.type, data: sseData(message) });
          }
        }
      } finally {
        unsubscribe?.();
      }
    }),
  );
}
