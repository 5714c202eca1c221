/**
 * A session's JSON (`show --json`, `export --format json`) written from a `SessionStream`: the very text
 * `jsonChunks(loadSession(…))` writes, with the events and calls taken as they are read, so the memory it needs does
 * not grow with the session.
 * @module
 */

import { getHeapStatistics } from 'node:v8';
import type { SessionStream, Subagent, TimelineEvent, ToolCall } from '@agentdash/core';
import { STREAM_FROM_BYTES } from '@agentdash/core';
import {
  identifierSecretsOf,
  type RedactionReport,
  redactIdentifiersKnowing,
  SessionRedactor,
} from '@agentdash/core/secrets';
import { jsonChunks } from './json-chunks.js';

/** What each part goes through before it is written (say, a redaction); the identity by default. */
export interface SessionParts {
  head<T>(head: T): T;
  event(event: TimelineEvent): TimelineEvent;
  subagent<T extends Omit<Subagent, 'events'>>(subagent: T): T;
  call(call: ToolCall): ToolCall;
  tail<T>(tail: T): T;
  /**
   * A part's identifiers alone as the others redact them: enough for what is read of it and not written (its
   * kind, ids, tool names and statuses), for less than a whole redaction.
   */
  ids<T>(part: T): T;
}

export const sameParts: SessionParts = {
  head: (head) => head,
  event: (event) => event,
  subagent: (subagent) => subagent,
  call: (call) => call,
  tail: (tail) => tail,
  ids: (part) => part,
};

/** A property whose value is an array written as its items come. */
class Streamed {
  constructor(readonly items: () => AsyncIterable<unknown>) {}
}
/** An object with streamed properties, as its entries in order. */
class Entries {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
}

/** Entries known only once the entries before them are written (a session's counts, after its calls). */
class Deferred {
  constructor(readonly get: () => Promise<object>) {}
}

const omitted = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** Pieces are handed on joined, about this many characters at a time: one await per batch, not per tiny piece. */
const BATCH_CHARS = 64 * 1024;

/** The pieces written and not yet handed on. */
class Batch {
  private pieces: string[] = [];
  private size = 0;
  add(piece: string): void {
    this.pieces.push(piece);
    this.size += piece.length;
  }
  get full(): boolean {
    return this.size >= BATCH_CHARS;
  }
  get empty(): boolean {
    return this.pieces.length === 0;
  }
  /** The pieces so far as one, and none left. */
  take(): string {
    const text = this.pieces.join('');
    this.pieces = [];
    this.size = 0;
    return text;
  }
}

/** Writes `value` into `out`, yielding a batch whenever it is full. */
async function* written(value: unknown, indent: string, out: Batch): AsyncGenerator<string, void, undefined> {
  if (value instanceof Streamed) {
    let n = 0;
    out.add('[');
    for await (const item of value.items()) {
      out.add(`${n === 0 ? '' : ','}\n${indent}  `);
      if (item instanceof Streamed || item instanceof Entries) yield* written(item, `${indent}  `, out);
      else yield* plain(item, `${indent}  `, out);
      n++;
    }
    out.add(n === 0 ? ']' : `\n${indent}]`);
  } else if (value instanceof Entries) {
    let wrote = false;
    out.add('{');
    for (const [key, entry] of value.entries) {
      const expanded = entry instanceof Deferred ? Object.entries(await entry.get()) : [[key, entry] as const];
      for (const [name, item] of expanded) {
        if (omitted(item)) continue;
        out.add(`${wrote ? ',' : ''}\n${indent}  ${JSON.stringify(name)}: `);
        wrote = true;
        yield* written(item, `${indent}  `, out);
      }
    }
    out.add(wrote ? `\n${indent}}` : '}');
  } else {
    yield* plain(value, indent, out);
  }
}

/** A value with nothing streamed in it, batch by batch (a huge one is never one string). */
function* plain(value: unknown, indent: string, out: Batch): Generator<string, void, undefined> {
  for (const chunk of jsonChunks(value, indent)) {
    if (chunk.length >= BATCH_CHARS) {
      // A long piece (a tool's whole output) goes on alone, after the batch before it: joined, it would be copied.
      if (!out.empty) yield out.take();
      yield chunk;
      continue;
    }
    out.add(chunk);
    if (out.full) yield out.take();
  }
}

export async function* mapped<T, U>(items: AsyncIterable<T>, map: (item: T) => U): AsyncGenerator<U, void, undefined> {
  for await (const item of items) yield map(item);
}

/** The session's JSON, indented by two spaces (no newline after it), each part through `parts`. */
export async function* sessionJsonChunks(
  stream: SessionStream,
  parts: SessionParts = sameParts,
): AsyncGenerator<string, void, undefined> {
  const head = parts.head(stream.head);
  const subagents = stream.subagents.map((sub) => {
    const { startedAt, endedAt, ...before } = parts.subagent(sub);
    return new Entries([
      ...Object.entries(before),
      ['events', new Streamed(() => mapped(stream.events(sub.key), parts.event))],
      ['startedAt', startedAt],
      ['endedAt', endedAt],
    ]);
  });
  const out = new Batch();
  yield* written(
    new Entries([
      ...Object.entries(head),
      ['events', new Streamed(() => mapped(stream.events(), parts.event))],
      ['subagents', new Streamed(() => listed(subagents))],
      ['calls', new Streamed(() => mapped(stream.calls(), parts.call))],
      ['', new Deferred(async () => parts.tail(await stream.tail()))],
    ]),
    '',
    out,
  );
  yield out.take();
}

async function* listed<T>(items: readonly T[]): AsyncGenerator<T, void, undefined> {
  yield* items;
}

/**
 * The secrets in a streamed session's identifiers (`identifierSecretsOf` over every part but its calls: each call is
 * in an event too), read once before the session is written with `identifierParts`.
 */
export async function identifierSecretsOfStream(stream: SessionStream): Promise<ReadonlySet<string>> {
  const found = new Set<string>();
  identifierSecretsOf(stream.head, found);
  for await (const event of stream.events()) identifierSecretsOf(event, found);
  for (const sub of stream.subagents) {
    identifierSecretsOf(sub, found);
    for await (const event of stream.events(sub.key)) identifierSecretsOf(event, found);
  }
  identifierSecretsOf(stream.known, found);
  return found;
}

/** Every part with the secrets of its identifiers redacted, as `redactIdentifiers` redacts the whole session. */
export function identifierParts(found: ReadonlySet<string>): SessionParts {
  const redact = <T>(part: T): T => redactIdentifiersKnowing(part, found);
  return { head: redact, event: redact, subagent: redact, call: redact, tail: redact, ids: redact };
}

/**
 * What `redactSession` finds in a streamed session: the secrets of its identifiers and the report of every secret
 * redacted, read before the session is written (the HTML export shows the count at its top, and every export prints
 * the report). One read of the events, a second only when its identifiers hold a secret.
 */
export async function redactionOfStream(
  stream: SessionStream,
): Promise<{ readonly found: ReadonlySet<string>; readonly report: RedactionReport }> {
  const found = new Set<string>();
  const count = async (known: ReadonlySet<string>, scan: boolean): Promise<RedactionReport> => {
    const redactor = new SessionRedactor(known);
    const take = (part: unknown) => scan && identifierSecretsOf(part, found);
    take(stream.head);
    redactor.head(stream.head);
    for await (const event of stream.events()) {
      take(event);
      redactor.event(event);
    }
    for (const sub of stream.subagents) {
      take(sub);
      redactor.subagent(sub);
      for await (const event of stream.events(sub.key)) {
        take(event);
        redactor.event(event);
      }
    }
    take(stream.known);
    if (redactor.callsAgain) for await (const call of stream.calls()) redactor.call(call);
    redactor.tail(stream.known);
    return redactor.report();
  };
  const report = await count(new Set(), true);
  return { found, report: found.size > 0 ? await count(found, false) : report };
}

/** Every part redacted as `redactSession` redacts the whole session (`found`: from `redactionOfStream`). */
export function redactedParts(found: ReadonlySet<string>): SessionParts {
  const redactor = new SessionRedactor(found);
  return {
    head: (part) => redactor.head(part),
    event: (event) => redactor.event(event),
    subagent: (sub) => redactor.subagent(sub),
    call: (call) => redactor.call(call),
    tail: (part) => redactor.tail(part),
    ids: (part) => redactIdentifiersKnowing(part, found),
  };
}

/** What a loaded session takes in memory per byte of its transcript, about (records, typed results, events). */
const LOADED_PER_BYTE = 4;

/**
 * Whether a session of `bytes` of transcript is written as it is read (`openSessionStream`) rather than loaded whole:
 * from `STREAM_FROM_BYTES`, when loading it would take more than half of this process's heap. Streaming reads the
 * files three or four times, so a session that fits is written faster loaded.
 */
export function streamsBetter(bytes: number, heapLimit = getHeapStatistics().heap_size_limit): boolean {
  return bytes >= STREAM_FROM_BYTES && bytes * LOADED_PER_BYTE > heapLimit / 2;
}
