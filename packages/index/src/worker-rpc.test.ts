/**
 * The worker RPC helper over a real worker thread (test/rpc-worker.mjs, running the built helper): answers, streams
 * and notices in order, errors with their codes, a worker that dies or is terminated mid-call, cancellation. The
 * protocol's checks at compile time are in `typeChecks` (run by `npm run typecheck`, never called).
 */
import type { MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { RPC_CODES, type RpcCall, serveRpc, WorkerRpcClient, type WorkerRpcError } from './worker-rpc.js';
import { startBuiltWorker } from './worker-script.js';

type TestProtocol = {
  readonly calls: {
    readonly echo: RpcCall<{ readonly text: string }, string, { readonly part: string }>;
    readonly bytes: RpcCall<{ readonly data: Uint8Array }, number>;
    readonly fail: RpcCall<{ readonly code: string | undefined }, never>;
    readonly crash: RpcCall<{ readonly how: 'exit' | 'throw' }, never>;
    readonly wait: RpcCall<undefined, number>;
  };
  readonly toWorker: { readonly tell: string };
  readonly fromWorker: { readonly waiting: undefined; readonly aborted: undefined };
};

const script = new URL('../test/rpc-worker.mjs', import.meta.url);
const started: WorkerRpcClient<TestProtocol>[] = [];

function start(seen: string[] = []): WorkerRpcClient<TestProtocol> {
  const client = new WorkerRpcClient<TestProtocol>(startBuiltWorker(script), {
    waiting: () => seen.push('waiting'),
    aborted: () => seen.push('aborted'),
  });
  started.push(client);
  return client;
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call was answered'),
    (error: WorkerRpcError) => error,
  );

afterEach(async () => {
  await Promise.all(started.splice(0).map((client) => client.terminate()));
});

describe('worker RPC', () => {
  it('answers a call after the messages it streamed and the notices sent before it', async () => {
    const client = start();
    client.notify('tell', 'told');
    const parts: string[] = [];
    const answer = await client.call('echo', { text: 'one two three' }, { onStream: ({ part }) => parts.push(part) });
    expect(answer).toBe('told: one two three');
    expect(parts).toEqual(['one', 'two', 'three']);
    expect(client.pending).toBe(0);
  });

  it('moves the objects of a transfer list instead of copying them', async () => {
    const client = start();
    const data = new Uint8Array(1024);
    expect(await client.call('bytes', { data }, { transfer: [data.buffer] })).toBe(1024);
    expect(data.byteLength).toBe(0);
  });

  it('carries a thrown error across with its stable code, message and the protocol data', async () => {
    const client = start();
    const coded = await rejection(client.call('fail', { code: 'INDEX_BUSY' }));
    expect(coded).toMatchObject({ code: 'INDEX_BUSY', message: 'failed with INDEX_BUSY', remote: true });
    expect(coded.data).toEqual({ seen: 'by the worker' });
    const plain = await rejection(client.call('fail', { code: undefined }));
    expect(plain).toMatchObject({ code: RPC_CODES.failed, message: 'plain failure', remote: true });
    // the worker goes on answering
    expect(await client.call('echo', { text: 'still here' })).toBe('still here');
  });

  it('rejects the calls of a worker that exits mid-call, and refuses calls after', async () => {
    const client = start();
    const waiting = rejection(client.call('wait', undefined));
    const crashed = await rejection(client.call('crash', { how: 'exit' }));
    expect(crashed).toMatchObject({ code: RPC_CODES.exited, remote: false });
    expect(crashed.message).toContain('exited with code 7');
    expect(await waiting).toBe(crashed);
    expect(await rejection(client.call('echo', { text: 'anyone?' }))).toMatchObject({ code: RPC_CODES.closed });
    expect(client.pending).toBe(0);
  });

  it('rejects the calls of a worker that fails with an uncaught error, naming it', async () => {
    const client = start();
    const failed = await rejection(client.call('crash', { how: 'throw' }));
    expect(failed).toMatchObject({ code: RPC_CODES.exited, remote: false });
    expect(failed.message).toContain('uncaught in the worker');
  });

  it('terminate rejects the calls under way with its reason and every call after it', async () => {
    const seen: string[] = [];
    const client = start(seen);
    const waiting = rejection(client.call('wait', undefined));
    await client.call('echo', { text: 'after wait started' });
    expect(seen).toEqual(['waiting']);
    const reason = new Error('server is stopping');
    await client.terminate(reason);
    expect(await waiting).toBe(reason);
    const after = await rejection(client.call('echo', { text: 'late' }));
    expect(after).toMatchObject({ code: RPC_CODES.closed, remote: false });
  });

  it('cancels a call: rejected here, its handler signalled there', async () => {
    const seen: string[] = [];
    const client = start(seen);
    const abort = new AbortController();
    const waiting = rejection(client.call('wait', undefined, { signal: abort.signal }));
    await client.call('echo', { text: 'wait is running' });
    abort.abort();
    expect(await waiting).toMatchObject({ code: RPC_CODES.cancelled });
    // a call after the cancel is answered after the worker saw it
    await client.call('echo', { text: 'next' });
    expect(seen).toEqual(['waiting', 'aborted']);
    expect(await rejection(client.call('wait', undefined, { signal: abort.signal }))).toMatchObject({
      code: RPC_CODES.cancelled,
    });
  });

  it('answers a method the worker does not have with a coded error', async () => {
    const client = start();
    const call = client.call as (method: string, request: unknown) => Promise<unknown>;
    expect(await rejection(call.call(client, 'missing', {}))).toMatchObject({ code: RPC_CODES.unknownMethod });
  });
});

/** Mismatches between a protocol, its calls and its handlers do not compile. */
export function typeChecks(client: WorkerRpcClient<TestProtocol>, port: MessagePort): void {
  // @ts-expect-error: a request of another shape
  void client.call('echo', { text: 1 });
  // @ts-expect-error: a method the protocol does not have
  void client.call('echoes', { text: 'x' });
  // @ts-expect-error: the answer is a string
  void client.call('echo', { text: 'x' }).then((n: number) => n);
  // @ts-expect-error: the stream's messages are parts
  void client.call('echo', { text: 'x' }, { onStream: (m: { readonly bytes: number }) => m });
  // @ts-expect-error: a notice's value of another type
  client.notify('tell', 3);
  const handlers = {
    echo: ({ text }: { readonly text: string }) => text,
    bytes: ({ data }: { readonly data: Uint8Array }) => data.byteLength,
    fail: (): never => {
      throw new Error('no');
    },
    crash: (): never => {
      throw new Error('no');
    },
    wait: () => 0,
  };
  const notices = { notices: { tell: (_text: string) => {} } };
  serveRpc<TestProtocol>(port, handlers, notices);
  const { wait: _wait, ...withoutWait } = handlers;
  // @ts-expect-error: a handler missing
  serveRpc<TestProtocol>(port, withoutWait, notices);
  // @ts-expect-error: a handler taking another request
  serveRpc<TestProtocol>(port, { ...handlers, echo: ({ text }: { readonly text: number }) => String(text) }, notices);
  // @ts-expect-error: a handler answering another type
  serveRpc<TestProtocol>(port, { ...handlers, bytes: () => 'many' }, notices);
  // @ts-expect-error: a notice the worker does not handle
  serveRpc<TestProtocol>(port, handlers, { notices: {} });
}
