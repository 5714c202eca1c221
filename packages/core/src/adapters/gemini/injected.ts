import { isRecord, str } from '../../internal/guards.js';
import { textOf } from './parts.js';

/**
 * User messages that carry a subagent's instructions: 0.20 writes the subagent's whole prompt (its template around
 * the objective) as a user message right after the user's own, before the call that runs the subagent. Such a
 * message follows another user message and contains the `objective`/`prompt` of a subagent call in the next model
 * message. Kept, as meta.
 */
export function subagentPrompts(messages: readonly Record<string, unknown>[]): Set<string> {
  const found = new Set<string>();
  messages.forEach((message, i) => {
    const previous = messages[i - 1];
    const next = messages[i + 1];
    if (message.type !== 'user' || previous?.type !== 'user' || next === undefined) return;
    const text = textOf(message.content ?? message.parts);
    const calls = Array.isArray(next.toolCalls) ? next.toolCalls : [];
    const carries = calls.some((call) => {
      if (!isRecord(call) || !isRecord(call.args)) return false;
      const brief = str(call.args.objective) ?? str(call.args.prompt);
      return brief !== undefined && brief.length >= 8 && text !== brief && text.includes(brief);
    });
    const id = str(message.id);
    if (carries && id !== undefined) found.add(id);
  });
  return found;
}
