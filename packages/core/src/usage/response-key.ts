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
 * - a response without an id (`dedupeResponses` numbers it `#<n>`) is scoped by the session's key in its home;
 * - an id unique everywhere that another session holds for another request (both with a request id, and they
 *   differ: a gateway that reuses ids) is no copy: `contested` says so, and every response of that id with a request
 *   id is then keyed `<id>:<requestId>` (as `dedupeResponses` keys a second request of one id in one session),
 *   whichever session was read first. A copy that dropped its request id (Claude Code 1.0.x's resume) shares the
 *   bare id; of a contested id it cannot be told whose copy it is, and counts as its own.
 *
 * @example
 * responseKeyOf({ key: 'm2', messageId: 'm2' }, 'session', { sessionId: 's1', keyInHome: 'p/s1' }); // 's1/m2'
 */
export function responseKeyOf(
  response: Pick<ResponseUsage<unknown>, 'key' | 'messageId' | 'requestId'>,
  ids: ResponseIds,
  scope: ResponseScope,
  contested: (key: string, requestId: string) => boolean = () => false,
): string {
  if (response.messageId === undefined) return `${scope.keyInHome}${response.key}`;
  if (ids !== 'unique') return `${scope.sessionId}/${response.key}`;
  const { key, requestId } = response;
  return requestId !== undefined && key === response.messageId && contested(key, requestId)
    ? requestKeyOf(key, requestId)
    : key;
}

/** The key of one request's response of a message id served to several requests (`<id>:<requestId>`). */
const requestKeyOf = (messageId: string, requestId: string): string => `${messageId}:${requestId}`;
