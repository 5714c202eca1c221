import type { ResponseUsage } from './dedupe.js';

/**
 * How far an agent's response ids (`messageId`) are unique (`AgentCapabilities.responseIds`): `unique` everywhere
 * (an API's id, a UUID: a copy of the response keeps it), or only within their `session`.
 */
export type ResponseIds = 'unique' | 'session';

/** The session a response was counted in: its id, and its key below its agent home (`<project folder>/<id>`). */
export interface ResponseScope {
  readonly sessionId: string;
  readonly keyInHome: string;
}

/**
 * The key that tells one response from every other across sessions (the index's `responses.key`: reports count a
 * response several sessions hold once, for the session that owns it). One rule for every agent:
 * - an id unique everywhere (`responseIds: 'unique'`) is the response's: a resumed or continued session's copy keeps
 *   it (Claude Code, Copilot CLI), so it is its own key;
 * - an id unique only within its session (`'session'`: made by a decoder, or a writer's short ids) is scoped by the
 *   session's id, so copies of one session (the same id, in another folder or home) still share it and unrelated
 *   sessions that happen to use one id (Gemini's `m2` in two sessions) never do;
 * - a response without an id (`dedupeResponses` numbers it `#<n>`) is scoped by the session's key in its home.
 *
 * @example
 * responseKeyOf({ key: 'm2', messageId: 'm2' }, 'session', { sessionId: 's1', keyInHome: 'p/s1' }); // 's1/m2'
 */
export function responseKeyOf(
  response: Pick<ResponseUsage<unknown>, 'key' | 'messageId'>,
  ids: ResponseIds,
  scope: ResponseScope,
): string {
  if (response.messageId === undefined) return `${scope.keyInHome}${response.key}`;
  return ids === 'unique' ? response.key : `${scope.sessionId}/${response.key}`;
}
