/** `show`'s line of a tool call: its mark, summary, duration, and an error's category, severity and message. */
import { primaryDurationMs, type ToolCall } from '@agentdash/core';
import { summarizeCall } from '@agentdash/core/present';
import { excerpt, formatDuration, terminalText } from '../format.js';
import type { Colors } from '../io.js';

/** One-line description of a call with status, category/severity and duration. */
export function callLine(call: ToolCall, c: Colors, cwd: string | undefined, copied: boolean): string {
  const full = terminalText(summarizeCall(call, cwd));
  const category = call.result?.error?.category;
  // The category is shown in brackets; keep only `→ exit N` in the summary itself.
  const summary =
    category && category !== 'exit-code' && full.endsWith(` → ${category}`)
      ? full.slice(0, -(category.length + 3))
      : full;
  const ms = primaryDurationMs(call);
  // A copy's times are the resume's, not a run's: no duration.
  const duration = copied ? c.dim(' (copied)') : ms !== undefined ? c.dim(` (${formatDuration(ms)})`) : '';
  switch (call.status) {
    case 'ok':
      return `${c.green('✓')} ${summary}${duration}`;
    case 'error': {
      const error = call.result?.error;
      const label = error ? terminalText(`${error.category}, ${error.severity}`) : 'error';
      const mark = error?.severity === 'expected' ? c.yellow('✗') : c.red('✗');
      const message = error?.message ? c.dim(` ${excerpt(error.message, 80)}`) : '';
      return `${mark} ${summary}${duration} ${error?.severity === 'expected' ? c.yellow(`[${label}]`) : c.red(`[${label}]`)}${message}`;
    }
    case 'pending':
      return `${c.cyan('…')} ${summary} ${c.cyan('[pending]')}`;
    case 'unanswered':
      return `${c.yellow('?')} ${summary} ${c.yellow('[no result]')}`;
    default:
      return call.status satisfies never;
  }
}
