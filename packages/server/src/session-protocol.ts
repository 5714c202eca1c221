/**
 * What the server asks its session and query workers (session-worker.ts), as a worker-rpc protocol: each call's
 * request and answer, checked on both sides at compile time.
 */
import { type NoNotices, type RpcCall, type RpcErrorData, WorkerRpcError } from '@agentdash/index';
import type { SessionRow } from './api-types.js';
import type { ExportFormat } from './export-formats.js';
import { HttpError, type HttpStatus, toHttpError } from './http-error.js';
import type { QueryMethod, ResponseMethod } from './index-queries.js';
import { RawJson } from './raw-json.js';
import type { SessionHost } from './session-host.js';
import { workerScript } from './worker-script.js';

/** A reply value serialized in the worker (detail, page, call, waterfall, files). */
export interface JsonText {
  readonly jsonText: string;
  /** The text as gzip, for clients that take it (large answers only). */
  readonly jsonGzip?: Uint8Array;
}

type Answered<K extends keyof SessionHost> = SessionHost[K] extends (...args: never[]) => Promise<infer R> ? R : never;

type SessionRef = { readonly sessionId: string };
type CallRef = { readonly sessionId: string; readonly callId: string };

export type SessionProtocol = {
  readonly calls: {
    // Answers the worker serializes itself (`JsonText`): the event loop sends the text as it is.
    readonly detail: RpcCall<{ readonly row: SessionRow }, JsonText | undefined>;
    readonly page: RpcCall<
      SessionRef & {
        readonly agent: string | undefined;
        readonly offset: number;
        readonly limit: number;
        readonly all: boolean;
      },
      JsonText | undefined
    >;
    readonly call: RpcCall<CallRef & { readonly chars: number | undefined }, JsonText | undefined>;
    readonly waterfall: RpcCall<SessionRef, JsonText | undefined>;
    readonly files: RpcCall<SessionRef, JsonText | undefined>;
    readonly locate: RpcCall<CallRef, Answered<'locate'>>;
    readonly readIssues: RpcCall<SessionRef, Answered<'readIssues'>>;
    readonly errors: RpcCall<SessionRef, Answered<'errors'>>;
    readonly find: RpcCall<SessionRef & { readonly query: string }, Answered<'find'>>;
    readonly invalidate: RpcCall<{ readonly sessionId: string | undefined }, undefined>;
    readonly exportOpen: RpcCall<
      SessionRef & {
        readonly format: ExportFormat;
        readonly summary: unknown;
        readonly assetsDir: string;
        readonly redact: boolean;
      },
      { readonly stream: number; readonly redacted: number }
    >;
    readonly exportNext: RpcCall<{ readonly stream: number }, string | undefined>;
    readonly exportClose: RpcCall<{ readonly stream: number }, undefined>;
    /** An index query (`runQuery`) run in the worker. */
    readonly query: RpcCall<
      { readonly method: QueryMethod | ResponseMethod; readonly args: readonly unknown[] },
      unknown
    >;
  };
  readonly toWorker: NoNotices;
  /** The sessions the worker holds: posted before an answer when they changed since the previous one. */
  readonly fromWorker: { readonly loaded: readonly string[] };
};

/** The built session worker script (see `workerScript`). */
export function sessionWorkerScript(): URL | undefined {
  return workerScript('session-worker.js');
}

/** A worker's reply value as an answer: JSON text becomes `RawJson`, anything else stays as it is. */
export function fromText<T>(value: unknown): T {
  const reply = value as Partial<JsonText> | null | undefined;
  const text = reply?.jsonText;
  return (typeof text === 'string' ? new RawJson(text, reply?.jsonGzip) : value) as T;
}

/**
 * In the worker: what crosses of a failed request. Operational errors (an ambiguous reference, a busy index…) keep
 * their status and code; anything else is a 500 "internal error", logged there.
 */
export function errorDataOfRequest(error: unknown): RpcErrorData {
  const http = toHttpError(error);
  if (!http) console.error('agentdash: session request failed:', error);
  const status: HttpStatus = http?.status ?? 500;
  return {
    message: http?.message ?? 'internal error',
    code: http?.code,
    data: { status, code: http?.code, candidates: http?.candidates },
  };
}

/** In the server: the HTTP error of a failed worker call (one that stopped with its thread is a 500). */
export function httpErrorOfCall(error: unknown): unknown {
  if (!(error instanceof WorkerRpcError)) return error;
  if (!error.remote) return new HttpError(500, 'a worker thread stopped');
  const data = error.data as
    | { readonly status: HttpStatus; readonly code: string | undefined; readonly candidates?: readonly string[] }
    | undefined;
  return new HttpError(data?.status ?? 500, error.message, data?.code, data?.candidates);
}
