/** `show`'s words for a session's calls and errors, and for the copies a resume or fork left in it. */
import type { CopiedFrom } from '@agentdash/index';
import { excerpt, formatCost, formatErrors, plural, terminalText } from '../format.js';
import type { Colors } from '../io.js';

/** The session's tool calls as the sessions list counts them, with the copies the transcript holds beside them. */
export function callsText(calls: number, copiedFrom: readonly CopiedFrom[]): string {
  const copies = copiedFrom.reduce((n, from) => n + from.calls, 0);
  return copies === 0 ? plural(calls, 'tool call') : `${plural(calls - copies, 'tool call')} (+${copies} copied)`;
}

/**
 * The session's own responses (as the sessions list counts them), with the copies a resume or fork left in it apart,
 * as its tool calls (`callsText`).
 */
export function responsesText(own: number, copiedFrom: readonly CopiedFrom[]): string {
  const copies = copiedFrom.reduce((n, from) => n + from.responses, 0);
  return copies === 0 ? plural(own, 'response') : `${plural(own, 'response')} (+${copies} copied)`;
}

/**
 * The session's prompts: its own as the sessions list counts them (`own`, when the index has the session), those a
 * resume or fork copied from an earlier session apart; else every prompt its transcript holds.
 */
export function promptsText(prompts: number, own: number | undefined): string {
  const copies = own === undefined ? 0 : Math.max(0, prompts - own);
  return copies === 0 ? plural(prompts, 'prompt') : `${plural(prompts - copies, 'prompt')} (+${copies} copied)`;
}

/** "1 error", "4 errors +2 expected": the noun after the count of real errors it belongs to. */
export function errorsInWords(counts: { readonly errors: number; readonly expectedErrors: number }): string {
  return formatErrors(counts).replace(/^\S+/, (n) => `${n} ${n === '1' ? 'error' : 'errors'}`);
}

/**
 * `, 1 failed request (3 retried attempts)`: the requests the agent gave up on (an API error ended the turn) and the
 * attempts it retried, after the errors; nothing when none.
 */
export function requestsText(
  counts: { readonly failedRequests: number; readonly retriedRequests: number },
  c: Pick<Colors, 'red' | 'dim'>,
): string {
  const failed = counts.failedRequests > 0 ? `, ${c.red(plural(counts.failedRequests, 'failed request'))}` : '';
  const retried = counts.retriedRequests;
  return `${failed}${retried > 0 ? c.dim(` (${plural(retried, 'retried attempt')})`) : ''}`;
}

/** One source of copies, in words: what came from it, and that it is counted there. */
export function copiedText(from: CopiedFrom): string {
  const responses =
    from.responses > 0
      ? `${plural(from.responses, 'response')} (${formatCost(from.costUsd, from)}, not in the cost above)`
      : '';
  const title = from.title === null ? '' : ` "${excerpt(from.title, 60)}"`;
  const failed = from.errors > 0 ? ` (${errorsInWords(from)})` : '';
  // no "0 tool calls and" before the responses of a copy that holds none
  const calls = from.calls > 0 || responses === '' ? `${plural(from.calls, 'tool call')}${failed}` : '';
  const what = [calls, responses].filter((part) => part !== '').join(' and ');
  if (from.sameSession) {
    return terminalText(`${what} held by another copy of this session, ${from.ref}; counted there`);
  }
  return terminalText(`${what} copied from ${from.ref}${title} when it was resumed; counted there`);
}
