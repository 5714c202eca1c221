/**
 * A JSON answer serialized once: a cached list or statistics answer, or a session page serialized in its worker
 * thread, is sent as it is instead of being stringified again on the server's event loop for every request. It is
 * compressed once too (gzip, when the client takes it): under many dashboards most of the event loop's time went
 * to writing the same large answers to sockets again and again.
 */
import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import type { Context } from 'hono';

const gzipAsync = promisify(gzip);

/** Answers shorter than this are sent as they are (compressing them saves too little to pay for itself). */
export const GZIP_MIN_CHARS = 1024;
/** Fast compression: an answer is compressed once, but often (the lists change whenever a session does). */
const GZIP_LEVEL = 3;

export class RawJson<T> {
  /** The value's JSON text. */
  readonly text: string;
  #gzip: Uint8Array | undefined;
  #gzipping: Promise<Uint8Array> | undefined;

  /** The JSON text, and its gzip bytes when they were made already (in a worker thread). */
  constructor(text: string, gzipped?: Uint8Array) {
    this.text = text;
    this.#gzip = gzipped;
  }

  static of<T>(value: T): RawJson<T> {
    return new RawJson<T>(JSON.stringify(value));
  }

  /** Whether the answer is worth compressing. */
  get compressible(): boolean {
    return this.text.length >= GZIP_MIN_CHARS;
  }

  /** The text as gzip, made once (blocking: for worker threads). */
  gzipSync(): Uint8Array {
    this.#gzip ??= gzipSync(this.text, { level: GZIP_LEVEL });
    return this.#gzip;
  }

  /** The text as gzip, made once, off the event loop (in libuv's thread pool). */
  gzip(): Promise<Uint8Array> {
    if (this.#gzip !== undefined) return Promise.resolve(this.#gzip);
    this.#gzipping ??= gzipAsync(this.text, { level: GZIP_LEVEL }).then((bytes) => {
      this.#gzip = bytes;
      return bytes;
    });
    return this.#gzipping;
  }

  /** The value again (parsed; for tests and callers that need to look inside). */
  value(): T {
    return JSON.parse(this.text) as T;
  }
}

/** A value, or its JSON text. */
export type Answer<T> = T | RawJson<T>;

/** The value of an answer, parsed when it is JSON text. */
export function answerValue<T>(answer: Answer<T>): T {
  return answer instanceof RawJson ? answer.value() : answer;
}

/** Whether the request's `Accept-Encoding` takes gzip (listed, and not with q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

const JSON_TYPE = 'application/json; charset=UTF-8';

/** Respond with an answer (as it is when it is JSON text already; compressed once when the client takes gzip). */
export async function sendJson<T>(c: Context, answer: Answer<T>, status: 200 = 200): Promise<Response> {
  if (!(answer instanceof RawJson)) return c.json(answer as object, status);
  if (!answer.compressible) return c.body(answer.text, status, { 'Content-Type': JSON_TYPE });
  if (!acceptsGzip(c.req.header('accept-encoding'))) {
    return c.body(answer.text, status, { 'Content-Type': JSON_TYPE, Vary: 'Accept-Encoding' });
  }
  const bytes = await answer.gzip();
  return c.body(bytes as Uint8Array<ArrayBuffer>, status, {
    'Content-Type': JSON_TYPE,
    'Content-Encoding': 'gzip',
    Vary: 'Accept-Encoding',
  });
}
