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

/** Milliseconds since epoch of a timestamp, or undefined when it does not parse. */
export function timestampMs(ts: IsoTimestamp | string | undefined): number | undefined {
  if (ts === undefined) return undefined;
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
