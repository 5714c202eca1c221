/**
 * Requests to the model that failed, one neutral fact whoever wrote them: a session that died on an API error (a
 * 400, a 500 past every retry, a 429) held no errored call, so it said 0 errors and "Has errors" left it out.
 *
 * - `failed`: the agent gave up on the request; the turn ended on it (Claude Code's API-error message written as
 *   the answer, a Codex turn ending on an error, Copilot's `session.error`, OpenCode's failed message, Qwen's
 *   `api_error`).
 * - `retried`: an attempt the agent retried (Claude Code's `api_error` notes with `retryAttempt`, Codex's
 *   reconnects): the request may still have been answered.
 */
import type { TranscriptRecord } from '../model/record.js';
import type { TimelineEvent } from '../model/session.js';

export type RequestFailure = 'failed' | 'retried';

/** What a record says of a failed request, if it is one (the adapters mark retries: `SystemRecord.retried`). */
export function requestFailureOf(record: TranscriptRecord): RequestFailure | undefined {
  if (record.kind === 'assistant') return record.isApiErrorMessage ? 'failed' : undefined;
  if (record.kind !== 'system' || record.subtype !== 'api_error') return undefined;
  return record.retried === true ? 'retried' : 'failed';
}

/** Whether a timeline event shows a request that failed (`requestFailureOf` of its record: `failed`). */
export function isFailedRequestEvent(event: TimelineEvent): boolean {
  if (event.kind === 'assistant') return event.isApiError;
  return event.kind === 'system' && requestFailureOf(event.record) === 'failed';
}
