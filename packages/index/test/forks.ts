/**
 * A conversation and its fork, as Claude Code writes them: the fork's file holds the earlier conversation copied (the
 * same uuids, message ids and times), then its own turn. Message ids `msg_<tag>_1` to `_3`.
 */
import { assistantText, basesOf, prompt } from '@agentdash/testing/synthetic';

/** The earlier conversation: two prompts answered at 10:00:05 and 10:00:20, as `session`'s file holds them. */
export function earlierTurns(session: string, tag: string): string[] {
  const at = basesOf(session);
  return [
    prompt(at('u1', null, 0), 'Start.'),
    assistantText(at('a1', 'u1', 5), `msg_${tag}_1`, 'Started.'),
    prompt(at('u2', 'a1', 10), 'Go on.'),
    assistantText(at('a2', 'u2', 20), `msg_${tag}_2`, 'Went on.'),
  ];
}

/** The fork `fork`: the earlier turns copied, then its own prompt at 10:00:40 answered at 10:00:43 (by `model`). */
export function forkTurns(fork: string, tag: string, model?: string): string[] {
  const at = basesOf(fork);
  const answer = assistantText(at('a3', 'u3', 43), `msg_${tag}_3`, 'Carried on.');
  return [
    ...earlierTurns(fork, tag),
    prompt(at('u3', 'a2', 40), 'Carry on in a fork.'),
    model === undefined ? answer : answer.replace('"model":"claude-opus-5-5"', `"model":"${model}"`),
  ];
}
