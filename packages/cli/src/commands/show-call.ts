/**
 * `show SESSION --call ID`: one call whole, where the timeline gives a line: what it was asked (its command, its
 * input), how it ended (status, error class, exit code, duration) and everything it answered, its lines kept, each
 * made safe for the terminal (`documentLines`). The timeline and search hits name a call by its id.
 * @module
 */
import type { Session, ToolCall } from '@agentdash/core';
import { primaryDurationMs } from '@agentdash/core';
import { oneLine } from '@agentdash/core/present';
import { AmbiguousCallError, UnknownCallError, UsageError } from '../errors.js';
import { documentLines, formatClock, formatDuration, terminalText } from '../format.js';
import type { Colors } from '../io.js';

/** The call `ref` names: its id, or the one call whose id begins with it. */
export function findCall(session: Session, ref: string): ToolCall {
  if (ref.trim() === '') throw new UsageError('--call needs a call id (as `show --json` and `search` give them)');
  const exact = session.calls.find((call) => call.id === ref);
  if (exact !== undefined) return exact;
  const matches = session.calls.filter((call) => call.id.startsWith(ref));
  if (matches.length === 1) return matches[0] as ToolCall;
  if (matches.length === 0) throw new UnknownCallError(`no call of this session has the id "${ref}"`);
  const some = matches.slice(0, 5).map((call) => call.id);
  throw new AmbiguousCallError(
    `call "${ref}" matches ${matches.length} calls of this session; name one of them: ${some.join(', ')}${matches.length > 5 ? ', …' : ''}`,
    matches.map((call) => call.id),
  );
}

/** The call's text: a head of its facts, then its input and its result, whole. */
export function callDetail(call: ToolCall, c: Colors): string {
  const out: string[] = [];
  const field = (label: string, value: string) => out.push(`${c.dim(label.padEnd(9))}${terminalText(value)}`);
  field('call', `${call.name} ${call.id}`);
  const ms = primaryDurationMs(call);
  field('time', `${formatClock(call.timestamp)}${ms === undefined ? '' : ` (${formatDuration(ms)})`}`);
  const error = call.result?.error;
  const ended = error === undefined ? call.status : `${call.status}: ${error.category}, ${error.severity}`;
  field('status', `${ended}${error?.exitCode === undefined ? '' : `, exit ${error.exitCode}`}`);
  if (call.agentId !== undefined) field('agent', call.agentId);
  const command = call.typedInput?.command;
  out.push('', c.bold('Input'));
  out.push(documentLines(command ?? JSON.stringify(call.input, null, 2) ?? ''));
  out.push('', c.bold(error === undefined ? 'Result' : 'Result (error)'));
  if (call.result === undefined) out.push(c.dim(call.status === 'pending' ? '(running)' : '(no result)'));
  else {
    const content = call.result.content;
    const text =
      typeof content === 'string'
        ? content
        : content.map((block) => (block.kind === 'text' ? block.text : `[${block.kind}]`)).join('\n');
    out.push(documentLines(text));
    // the error's words when the result does not hold them (a shell failure's are its output under an exit header)
    const words = error?.message.replace(/^Exit code \d+\n?/, '').trim();
    if (error !== undefined && words !== undefined && !text.includes(words)) {
      out.push('', c.dim(terminalText(`error: ${oneLine(error.message)}`)));
    }
  }
  return `${out.join('\n')}\n`;
}
