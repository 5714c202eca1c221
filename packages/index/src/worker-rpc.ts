/**
 * Typed calls to a worker thread: the one protocol of the index's parse workers and the server's session workers.
 * A protocol names its calls (request, response, and the messages a call streams before its response) and its
 * one-way notices in each direction; the caller's `call` and the worker's handlers are checked against it, so a
 * request its handler does not take, or a handler missing, does not compile.
 *
 * A call is answered once: with its handler's value, or with the error it threw (its message and stable `code`
 * cross the boundary; the class does not). A worker that fails or exits rejects every call it had not answered
 * (`WORKER_EXITED`); a call after `terminate` is rejected at once (`WORKER_CLOSED`); a call whose signal aborts is
 * rejected (`WORKER_CALL_CANCELLED`) and its handler sees its own signal abort. Messages of one port arrive in the
 * order posted: a call's streamed messages and the notices posted before its answer are delivered before it.
 */
import type { MessagePort, TransferListItem, Worker } from 'node:worker_threads';
import { AgentDashError } from '@agentdash/core';
import { messageOf } from '@agentdash/core/base';
import { stopWorker } from './worker-script.js';

/** One call of a protocol: what it is asked, what it answers, what it streams meanwhile (`never`: nothing). */
export interface RpcCall<Request, Response, Stream = never> {
  readonly request: Request;
  readonly response: Response;
  readonly stream: Stream;
}

/** A protocol: its calls by method, and its one-way notices to the worker and from it, by name. */
export interface RpcProtocol {
  readonly calls: { readonly [method: string]: RpcCall<unknown, unknown, unknown> };
  readonly toWorker: { readonly [notice: string]: unknown };
  readonly fromWorker: { readonly [notice: string]: unknown };
}

/** No notices in that direction. */
export type NoNotices = Readonly<Record<never, never>>;

export type MethodOf<P extends RpcProtocol> = keyof P['calls'] & string;
export type RequestOf<P extends RpcProtocol, M extends MethodOf<P>> = P['calls'][M]['request'];
export type ResponseOf<P extends RpcProtocol, M extends MethodOf<P>> = P['calls'][M]['response'];
export type StreamOf<P extends RpcProtocol, M extends MethodOf<P>> = P['calls'][M]['stream'];

/** The stable codes of a call that did not get its handler's answer. */
export const RPC_CODES = {
  /** The handler threw an error without a code of its own. */
  failed: 'WORKER_CALL_FAILED',
  /** The worker failed (an uncaught error) or exited before answering. */
  exited: 'WORKER_EXITED',
  /** The worker was terminated by this side, before the call or during it. */
  closed: 'WORKER_CLOSED',
  /** The caller's signal aborted the call. */
  cancelled: 'WORKER_CALL_CANCELLED',
  /** The worker has no handler for the method (a protocol mismatch between builds). */
  unknownMethod: 'WORKER_UNKNOWN_METHOD',
} as const;

/** What crosses the boundary of an error thrown by a handler. */
export interface RpcErrorData {
  readonly message: string;
  /** The error's stable code, when it has one. */
  readonly code: string | undefined;
  /** Anything else the protocol carries with its errors (structured-cloneable). */
  readonly data?: unknown;
}

/**
 * A call that was not answered with a value: the handler's error as it crossed (`remote`: its `code`, or
 * `WORKER_CALL_FAILED`, and `data`), or one of `RPC_CODES` on this side.
 */
export class WorkerRpcError extends AgentDashError {
  constructor(
    code: string,
    message: string,
    /** Whether the handler threw it (else: the worker failed, was closed, or the call was cancelled). */
    readonly remote: boolean,
    readonly data?: unknown,
    options?: ErrorOptions,
  ) {
    super(code, message, options);
  }
}

type Down =
  | { readonly rpc: 'call'; readonly id: number; readonly method: string; readonly request: unknown }
  | { readonly rpc: 'cancel'; readonly id: number }
  | { readonly rpc: 'notice'; readonly name: string; readonly value: unknown };

type Up =
  | { readonly rpc: 'reply'; readonly id: number; readonly value: unknown }
  | { readonly rpc: 'error'; readonly id: number; readonly error: RpcErrorData }
  | { readonly rpc: 'stream'; readonly id: number; readonly value: unknown }
  | { readonly rpc: 'notice'; readonly name: string; readonly value: unknown };

export interface CallOptions<Stream> {
  /** Objects of the request moved to the worker, not copied. */
  readonly transfer?: readonly TransferListItem[];
  /** Each message the call streams, in order, before its answer. */
  readonly onStream?: (message: Stream) => void;
  readonly signal?: AbortSignal;
}

type Waiting = {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly onStream: ((message: unknown) => void) | undefined;
};

/** Handlers of the notices a side receives, one per name. */
export type NoticeHandlers<Notices> = { readonly [N in keyof Notices]: (value: Notices[N]) => void };

/** The calling side of a worker speaking protocol `P`. */
export class WorkerRpcClient<P extends RpcProtocol> {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closedBy: WorkerRpcError | undefined;

  constructor(
    readonly worker: Worker,
    private readonly notices: NoticeHandlers<P['fromWorker']>,
  ) {
    worker.on('message', (message: Up) => this.receive(message));
    worker.on('error', (error: Error) =>
      this.close(
        new WorkerRpcError(RPC_CODES.exited, `worker thread failed: ${error.message}`, false, undefined, {
          cause: error,
        }),
      ),
    );
    worker.on('exit', (code: number) =>
      this.close(new WorkerRpcError(RPC_CODES.exited, `worker thread exited with code ${code}`, false)),
    );
  }

  /** Calls sent and not answered yet. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Why calls are refused now (the worker failed, exited or was terminated), if they are. */
  get closed(): WorkerRpcError | undefined {
    return this.closedBy;
  }

  call<M extends MethodOf<P>>(
    method: M,
    request: RequestOf<P, M>,
    options: CallOptions<StreamOf<P, M>> = {},
  ): Promise<ResponseOf<P, M>> {
    if (this.closedBy !== undefined) {
      const refused = new WorkerRpcError(RPC_CODES.closed, `the worker is stopped (${this.closedBy.message})`, false);
      return Promise.reject(refused);
    }
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancelled());
    const id = this.nextId++;
    return new Promise<ResponseOf<P, M>>((resolve, reject) => {
      const onAbort = () => {
        if (!this.waiting.delete(id)) return;
        this.post({ rpc: 'cancel', id });
        reject(cancelled());
      };
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.waiting.set(id, {
        resolve: (value) => {
          done();
          resolve(value as ResponseOf<P, M>);
        },
        reject: (error) => {
          done();
          reject(error);
        },
        onStream: options.onStream as ((message: unknown) => void) | undefined,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.post({ rpc: 'call', id, method, request }, options.transfer);
    });
  }

  /** A one-way message to the worker. */
  notify<N extends keyof P['toWorker'] & string>(
    name: N,
    value: P['toWorker'][N],
    transfer?: readonly TransferListItem[],
  ): void {
    if (this.closedBy === undefined) this.post({ rpc: 'notice', name, value }, transfer);
  }

  /**
   * Stop the worker: calls not answered are rejected with `reason` (default `WORKER_CLOSED`), later ones at once. The
   * thread itself ends once its modules are evaluated (`stopWorker`).
   */
  async terminate(reason?: Error): Promise<void> {
    this.close(new WorkerRpcError(RPC_CODES.closed, 'the worker was terminated', false), reason);
    await stopWorker(this.worker);
  }

  private post(message: Down, transfer?: readonly TransferListItem[]): void {
    this.worker.postMessage(message, transfer);
  }

  private close(why: WorkerRpcError, reason: Error = why): void {
    this.closedBy ??= why;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(reason);
  }

  private receive(message: Up): void {
    switch (message.rpc) {
      case 'notice':
        (this.notices as Record<string, ((value: unknown) => void) | undefined>)[message.name]?.(message.value);
        return;
      case 'stream':
        this.waiting.get(message.id)?.onStream?.(message.value);
        return;
      case 'reply': {
        const w = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        w?.resolve(message.value);
        return;
      }
      case 'error': {
        const w = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        const { code, message: text, data } = message.error;
        w?.reject(new WorkerRpcError(code ?? RPC_CODES.failed, text, true, data));
        return;
      }
    }
  }
}

const cancelled = () => new WorkerRpcError(RPC_CODES.cancelled, 'the call was cancelled', false);

/** What a handler gets besides its request. */
export interface RpcContext<Stream> {
  /** Aborts when the caller cancels the call. */
  readonly signal: AbortSignal;
  /** Post a message of the call's stream (dropped once the call is cancelled). */
  stream(message: Stream, transfer?: readonly TransferListItem[]): void;
}

export type RpcHandlers<P extends RpcProtocol> = {
  readonly [M in MethodOf<P>]: (
    request: RequestOf<P, M>,
    context: RpcContext<StreamOf<P, M>>,
  ) => ResponseOf<P, M> | Promise<ResponseOf<P, M>>;
};

/** The error data of what a handler threw: its message and, when it has one, its string `code`. */
export function errorDataOf(error: unknown): RpcErrorData {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    message: messageOf(error),
    code: typeof code === 'string' ? code : undefined,
  };
}

/** The worker's side: answers the calls arriving on `port` with `handlers`. */
export function serveRpc<P extends RpcProtocol>(
  port: MessagePort,
  handlers: RpcHandlers<P>,
  options: {
    readonly notices: NoticeHandlers<P['toWorker']>;
    /** What crosses of a handler's error (default `errorDataOf`). */
    readonly errorData?: (error: unknown) => RpcErrorData;
  },
): { notify<N extends keyof P['fromWorker'] & string>(name: N, value: P['fromWorker'][N]): void } {
  const running = new Map<number, AbortController>();
  const post = (message: Up, transfer?: readonly TransferListItem[]) => port.postMessage(message, transfer);
  const errorData = options.errorData ?? errorDataOf;
  const answer = async (id: number, method: string, request: unknown, abort: AbortController): Promise<void> => {
    const handler = (handlers as Record<string, RpcHandlers<P>[MethodOf<P>] | undefined>)[method];
    if (!Object.hasOwn(handlers, method) || handler === undefined) {
      const error = { message: `no handler for ${method}`, code: RPC_CODES.unknownMethod };
      post({ rpc: 'error', id, error });
      return;
    }
    const context: RpcContext<unknown> = {
      signal: abort.signal,
      stream: (value, transfer) => {
        if (!abort.signal.aborted) post({ rpc: 'stream', id, value }, transfer);
      },
    };
    try {
      const value = await handler(request as never, context as RpcContext<never>);
      if (!abort.signal.aborted) post({ rpc: 'reply', id, value });
    } catch (error) {
      if (!abort.signal.aborted) post({ rpc: 'error', id, error: errorData(error) });
    } finally {
      running.delete(id);
    }
  };
  port.on('message', (message: Down) => {
    switch (message.rpc) {
      case 'call': {
        const abort = new AbortController();
        running.set(message.id, abort);
        void answer(message.id, message.method, message.request, abort);
        return;
      }
      case 'cancel':
        running.get(message.id)?.abort();
        return;
      case 'notice':
        (options.notices as Record<string, ((value: unknown) => void) | undefined>)[message.name]?.(message.value);
        return;
    }
  });
  return { notify: (name, value) => post({ rpc: 'notice', name, value }) };
}
