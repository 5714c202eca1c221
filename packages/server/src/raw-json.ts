/**
 * A JSON answer serialized once: a cached list or statistics answer, or a session page serialized in its worker
 * thread, is sent as it is instead of being stringified again on the server's event loop for every request.
 */
import type { Context } from 'hono';

export class RawJson<T> {
  /** The value's JSON text. */
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  static of<T>(value: T): RawJson<T> {
    return new RawJson<T>(JSON.stringify(value));
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

/** Respond with an answer (as it is when it is JSON text already). */
export function sendJson<T>(c: Context, answer: Answer<T>, status: 200 = 200): Response {
  if (answer instanceof RawJson) {
    return c.body(answer.text, status, { 'Content-Type': 'application/json; charset=UTF-8' });
  }
  return c.json(answer as object, status);
}
