/** Branded identifiers: only the constructors below create them. */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type SessionId = Brand<string, 'SessionId'>;
export type ToolUseId = Brand<string, 'ToolUseId'>;
export type RecordUuid = Brand<string, 'RecordUuid'>;
export type SubagentId = Brand<string, 'SubagentId'>;
/** ISO-8601 timestamp as written by the client. */
export type IsoTimestamp = Brand<string, 'IsoTimestamp'>;

export const createSessionId = (value: string): SessionId => value as SessionId;
export const createToolUseId = (value: string): ToolUseId => value as ToolUseId;
export const createRecordUuid = (value: string): RecordUuid => value as RecordUuid;
export const createSubagentId = (value: string): SubagentId => value as SubagentId;
export const createIsoTimestamp = (value: string): IsoTimestamp => value as IsoTimestamp;

/**
 * An ISO-8601 time as the agents write them (`2026-01-01T08:00:05.123Z`, an offset, no seconds, a space for the `T`,
 * a day alone); a time without a zone is local (Aider's). Nothing else: `Date.parse`'s loose reading makes a date of
 * `1` (2001-01-01) or `April 8` (2001), which no transcript means.
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Milliseconds since epoch of a timestamp, or undefined when it is not an ISO time or does not parse. */
export function timestampMs(ts: IsoTimestamp | string | undefined): number | undefined {
  if (ts === undefined || !ISO_TIME.test(ts)) return undefined;
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * A session's first or last time as AgentDash gives it: ISO UTC to the millisecond (`2026-01-01T08:00:05.000Z`),
 * whatever offset or precision the transcript wrote (so times compare as text), from its milliseconds; else, when it
 * does not parse, the text as written.
 */
export function outputTime(ms: number | undefined, text: string | undefined): string | undefined {
  return ms !== undefined && Number.isFinite(ms) ? new Date(ms).toISOString() : text;
}
