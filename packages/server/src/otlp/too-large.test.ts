/**
 * A body over the receiver's cap is read to its end before the 413 goes out, so the sender gets the 413 and not a
 * connection reset (which an exporter reads as a network error, and which made the 50 MB case of receiver.test.ts
 * fail under load).
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOtlpApp } from './receiver.js';

const max = 64 * 1024;
let server: ReturnType<typeof serve>;
let port = 0;
let stored = 0;

beforeAll(async () => {
  let app: ReturnType<typeof createOtlpApp> | undefined;
  server = serve({ fetch: (r: Request) => (app ? app.fetch(r) : new Response('', { status: 503 })), port: 0 });
  port = await new Promise<number>((resolve) =>
    server.once('listening', () => resolve((server.address() as AddressInfo).port)),
  );
  app = createOtlpApp({
    store: () => {
      stored += 1;
      return { stored: 0, duplicates: 0, sessions: [] } as never;
    },
    host: '127.0.0.1',
    port,
    maxBodyBytes: max,
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * Sends `size` bytes in 16 KiB pieces a few milliseconds apart (as a slow link would), so a server that answers
 * before it has taken the body answers while pieces are still being sent.
 */
function send(size: number, declare: boolean) {
  return new Promise<{ status: number | undefined; body: string; answeredAfterLastPiece: boolean }>(
    (resolve, reject) => {
      let sentAll = false;
      let answeredAfterLastPiece = false;
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/v1/logs',
          method: 'POST',
          headers: {
            'content-type': 'application/x-protobuf',
            ...(declare ? { 'content-length': String(size) } : {}),
          },
        },
        (res) => {
          answeredAfterLastPiece = sentAll;
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode, body, answeredAfterLastPiece }));
        },
      );
      // A server that answers early and closes resets the rest; the answer, when it came first, is what is asked.
      req.on('error', (error) => (sentAll ? reject(error) : undefined));
      const piece = new Uint8Array(16 * 1024);
      let written = 0;
      // The last piece ends the request at once: with a declared length the server has the whole body as soon as that
      // piece is read, and may answer before a timer set after it would fire.
      const next = () => {
        if (req.destroyed) return;
        written += piece.length;
        req.write(piece);
        if (written < size) {
          setTimeout(next, 3);
          return;
        }
        sentAll = true;
        req.end();
      };
      next();
    },
  );
}

describe('a body over the cap', () => {
  it('gets its 413 after the whole body was taken, declared length or chunked', async () => {
    for (const declare of [true, false]) {
      const answer = await send(max * 6, declare);
      expect(answer).toEqual({ status: 413, body: `body over ${max} bytes\n`, answeredAfterLastPiece: true });
    }
    expect(stored).toBe(0);
  });
});
