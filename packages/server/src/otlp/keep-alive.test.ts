/**
 * An exporter's connection left idle between batches is not closed under it: a request sent on it after Node's
 * default 5 s keep-alive is answered. (With that default, the 50 MB case of receiver.test.ts got `ECONNRESET` under
 * load: the test's thread, busy building the body, sent it on a connection the receiver was closing.)
 */
import { connect, type Socket } from 'node:net';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpListener, startOtlpListener } from './listen.js';

let index: AgentIndex;
let listener: OtlpListener;

beforeAll(async () => {
  index = openIndex({ dbPath: ':memory:' });
  listener = await startOtlpListener({ index, port: 0 });
});
afterAll(async () => {
  await listener.close();
  index.close();
});

/** A request that gets its 400 at once (the body is not OTLP), on a kept-alive connection. */
function badRequest(port: number): string {
  const body = '{"hello": "world"}';
  return [
    'POST /v1/logs HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Content-Type: application/json',
    `Content-Length: ${body.length}`,
    'Connection: keep-alive',
    '',
    body,
  ].join('\r\n');
}

/** The next complete response's status line, or `closed` when the connection ends first. */
function nextStatus(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const done = (status: string) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('end', onClose);
      resolve(status);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const length = /content-length: *(\d+)/i.exec(text)?.[1];
      if (head >= 0 && length !== undefined && text.length >= head + 4 + Number(length)) {
        done(text.slice(0, text.indexOf('\r\n')));
      }
    };
    const onClose = () => done('closed');
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('end', onClose);
    if (socket.destroyed || socket.readableEnded) done('closed');
  });
}

describe('the OTLP listener keeps an idle exporter connection open', () => {
  it('answers a request sent after the connection was idle past 5 s', async () => {
    const port = listener.port;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const first = nextStatus(socket);
    socket.write(badRequest(port));
    expect(await first).toBe('HTTP/1.1 400 Bad Request');
    // idle as between two batches (OTel's default delay is 5 s), past Node's default keep-alive of 5 s
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const second = nextStatus(socket);
    socket.write(badRequest(port));
    expect(await second).toBe('HTTP/1.1 400 Bad Request');
    socket.destroy();
  }, 30_000);
});
