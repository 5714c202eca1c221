/**
 * `show`'s timeline: each event of a session as a line (a prompt, the agent's text and thinking, each call's summary,
 * a note), subagents indented under the call that started them, a line with the date where the day changes.
 * @module
 */
import type { AssistantItem, Subagent, TimelineEvent } from '@agentdash/core';
import { attachmentLabel, attachmentShows, systemNoteLabel, timelineShows } from '@agentdash/core';
import {
  isCompactionRun,
  isThinkingUnwritten,
  noteFields,
  noteLabel,
  otherBlockLabel,
  otherBlockRaw,
  repeatsUnwrittenThinking,
  UNWRITTEN_THINKING,
} from '@agentdash/core/present';
import { excerpt, formatClock, formatDay, terminalText } from '../format.js';
import type { Colors } from '../io.js';
import { callLine } from './show-call-line.js';
import { attachmentNoteText, imagesMark } from './show-notes.js';

/** The lines gathered so far, as one chunk (none when there are none). */
export function* drain(out: string[]): Generator<string, void, undefined> {
  if (out.length === 0) return;
  yield `${out.join('\n')}\n`;
  out.length = 0;
}

/** What every render step shares: the output lines, colours, options and the subagents already shown. */
export interface RenderContext {
  readonly out: string[];
  readonly c: Colors;
  readonly verbose: boolean;
  readonly subagents: ReadonlyMap<string, Subagent>;
  readonly shown: Set<string>;
  /** Ids of the calls a resume or fork copied into the transcript (`AgentIndex.sessionCopies`). */
  readonly copied: ReadonlySet<string>;
  readonly cwd: string | undefined;
  /** The local day of the last line written (`formatDay`): a line with the date is written where it changes. */
  day: string;
}

export function* renderEvents(
  events: readonly TimelineEvent[],
  depth: number,
  ctx: RenderContext,
): Generator<string, void, undefined> {
  const { out, c, verbose } = ctx;
  const indent = '    '.repeat(depth);
  /** A note's line: its time, mark, label (`noteLabel`) and the start of its text. */
  const note = (at: string | undefined, label: string, text: string, mark = c.dim('·')) =>
    out.push(
      `${indent}${c.dim(clock(ctx, indent, at))}  ${mark} ${c.dim(`${terminalText(noteLabel(label))}: ${excerpt(noteFields(text), 200)}`)}`,
    );
  for (const event of events) {
    switch (event.kind) {
      case 'prompt':
        out.push(
          `${indent}${c.dim(clock(ctx, indent, event.timestamp))}  ${c.bold(c.blue('▶'))} ${[event.text === '' ? '' : c.bold(excerpt(event.text, 300)), imagesMark(event.images.length, c)].filter((p) => p !== '').join(' ')}`,
        );
        // its other blocks (a PDF attached), named as a response's are
        for (const block of event.others ?? [])
          yield* renderItem({ kind: 'other-block', block }, event.timestamp, depth, ctx);
        break;
      case 'assistant':
        // a request that failed, its error written as the answer (core's `isFailedRequestEvent`): a note, as Codex's
        if (event.isApiError) {
          for (const item of event.items) {
            if (item.kind === 'text') note(event.timestamp, 'api_error', item.text, c.yellow('!'));
            else yield* renderItem(item, event.timestamp, depth, ctx);
          }
          break;
        }
        for (const [i, item] of event.items.entries()) {
          // thinking whose text was not kept, again: one line says it
          if (repeatsUnwrittenThinking(event.items, i)) continue;
          yield* renderItem(item, event.timestamp, depth, ctx);
        }
        break;
      case 'system': {
        // As the dashboard shows them (core's `timelineShows`): every note but the client's bookkeeping.
        const { subtype, level, content, timestamp } = event.record;
        if (timelineShows({ kind: 'system', subtype, content }) === undefined && !verbose) break;
        const error = level === 'error' || subtype === 'api_error';
        note(timestamp, systemNoteLabel(event.record), content ?? '', error ? c.yellow('!') : undefined);
        break;
      }
      case 'hidden':
        if (timelineShows({ kind: 'user', hidden: event.reason }) !== undefined) {
          note(event.record.timestamp, event.reason, event.text);
        } else if (verbose) {
          out.push(`${indent}${c.dim(`         · ${terminalText(event.reason)}: ${excerpt(event.text, 120)}`)}`);
        }
        break;
      case 'unknown':
        // Never dropped silently: a record type we do not know is shown with its raw data.
        out.push(
          `${indent}${c.dim(clock(ctx, indent, event.record.timestamp))}  ${c.yellow('?')} ${c.dim(
            `unknown record ${terminalText(event.record.type)}: ${excerpt(JSON.stringify(event.record.raw), 200)}`,
          )}`,
        );
        break;
      case 'attachment': {
        // a message sent while the agent worked, a hook's message (core's `attachmentShows`); the rest with -v
        const text = attachmentNoteText(event.record);
        if (text !== '' && (verbose || attachmentShows(event.record) !== undefined))
          note(event.record.timestamp, attachmentLabel(event.record), text);
        break;
      }
      case 'progress':
      case 'side':
        break;
      default:
        event satisfies never;
    }
    yield* drain(out);
  }
}

function* renderItem(
  item: AssistantItem,
  timestamp: string | undefined,
  depth: number,
  ctx: RenderContext,
): Generator<string, void, undefined> {
  const { out, c, verbose, subagents, shown, cwd } = ctx;
  const indent = '    '.repeat(depth);
  switch (item.kind) {
    case 'text':
      if (item.text.trim() !== '')
        out.push(`${indent}${c.dim(clock(ctx, indent, timestamp))}  ● ${excerpt(item.text, 300)}`);
      break;
    case 'thinking':
      out.push(
        `${indent}${c.dim(clock(ctx, indent, timestamp))}  ${c.dim(
          item.redacted
            ? '∴ (redacted thinking)'
            : isThinkingUnwritten(item)
              ? `∴ (${UNWRITTEN_THINKING})`
              : `∴ ${verbose ? excerpt(item.thinking, 300) : `thinking (${item.thinking.length} chars)`}`,
        )}`,
      );
      break;
    case 'tool-call': {
      out.push(
        `${indent}${c.dim(clock(ctx, indent, item.timestamp ?? timestamp))}  ${callLine(item, c, cwd, ctx.copied.has(item.id))}`,
      );
      const sub = item.subagentKey ? subagents.get(item.subagentKey) : undefined;
      if (sub && !shown.has(sub.key)) yield* renderSubagent(sub, depth + 1, ctx);
      break;
    }
    case 'other-block':
      // Never dropped silently: named, its raw data with --verbose.
      out.push(
        `${indent}${c.dim(clock(ctx, indent, timestamp))}  ${c.dim(
          `◇ ${terminalText(otherBlockLabel(item.block))}${verbose ? ` ${excerpt(JSON.stringify(otherBlockRaw(item.block)), 300)}` : ''}`,
        )}`,
      );
      break;
    default:
      item satisfies never;
  }
}

export function* renderSubagent(sub: Subagent, depth: number, ctx: RenderContext): Generator<string, void, undefined> {
  const { out, c } = ctx;
  ctx.shown.add(sub.key);
  const indent = '    '.repeat(depth);
  const kind = isCompactionRun(sub.agentId) ? 'compaction' : 'subagent';
  const named = `┌ ${kind}${sub.agentType ? ` ${sub.agentType}` : ''}${sub.agentId ? ` ${sub.agentId}` : ''}`;
  out.push(`${indent}${c.magenta(terminalText(named))}`);
  yield* renderEvents(sub.events, depth, ctx);
  out.push(`${indent}${c.magenta('└')}`);
}

/**
 * A line's time; first, when its local day is not the last line's, a line with the date (a session that runs past
 * midnight, a subagent's line of another day than its parent's). A time that does not parse sets no day.
 */
function clock(ctx: RenderContext, indent: string, at: string | undefined): string {
  const day = formatDay(at);
  if (day !== '—' && day !== ctx.day) {
    ctx.day = day;
    ctx.out.push(`${indent}${ctx.c.dim(`── ${day} ──`)}`);
  }
  return formatClock(at);
}
