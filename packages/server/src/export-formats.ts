/**
 * The export formats other than HTML, in pieces (a session of hundreds of MB is never one string): the enriched
 * session as JSON, the tool-call envelopes as JSON Lines, and a readable Markdown transcript. `agentdash export` and
 * the server's `GET /api/sessions/:id/export?format=` write them with the same code.
 * @module
 */
import type {
  AssistantItem,
  ParseIssue,
  Session,
  SessionStream,
  Subagent,
  TimelineEvent,
  ToolCall,
} from '@agentdash/core';
import {
  attachmentImages,
  attachmentLabel,
  attachmentShows,
  commandLine,
  noteSourceOf,
  primaryDurationMs,
  resultText,
  systemNoteLabel,
  timelineShows,
  toEnvelope,
} from '@agentdash/core';
import {
  callChangeDiff,
  documentLines,
  formatDateTime,
  formatDuration,
  imagesWord,
  isThinkingUnwritten,
  modelLabel,
  noteFields,
  noteLabel,
  oneLine,
  otherBlockLabel,
  otherBlockRaw,
  plural,
  repeatsUnwrittenThinking,
  summarizeCall,
  UNWRITTEN_THINKING,
  zoneLabel,
} from '@agentdash/core/present';
import { jsonChunks } from './json-chunks.js';
import { escapeMarkdown, fence, inertMarkdown, inlineCode, quotedLines } from './markdown-text.js';
import { mapped, type SessionParts } from './session-json.js';

export { jsonChunks } from './json-chunks.js';
export { escapeMarkdown, fence } from './markdown-text.js';
export {
  identifierParts,
  identifierSecretsOfStream,
  redactedParts,
  redactionOfStream,
  type SessionParts,
  sameParts,
  sessionJsonChunks,
  streamsBetter,
} from './session-json.js';

/** The formats every export offers (the CLI's `--format`, the dashboard's Export menu). */
export const exportFormats = ['html', 'markdown', 'json', 'envelope'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** One line of the envelope format: the seed-004 envelope plus the call's id and tool. */
export type EnvelopeLine =
  | { readonly id: string; readonly tool: string; readonly success: true; readonly data: unknown }
  | { readonly id: string; readonly tool: string; readonly success: false; readonly error: string };

/** The enriched session (as `show --json`), indented, then a newline. */
export function* jsonLines(value: unknown): Generator<string, void, undefined> {
  yield* jsonChunks(value);
  yield '\n';
}

/** `envelopeLines` of a streamed session, each call through `call` (say, a redaction) first. */
export async function* envelopeStreamLines(
  calls: AsyncIterable<ToolCall>,
  call: (call: ToolCall) => ToolCall = (c) => c,
): AsyncGenerator<string, void, undefined> {
  for await (const source of calls) yield envelopeLine(call(source));
}

function envelopeLine(call: ToolCall): string {
  const line: EnvelopeLine = { id: call.id, tool: call.name, ...toEnvelope(call) };
  return `${JSON.stringify(line)}\n`;
}

/** One JSON line per tool call (subagents' included), in file order. */
export function* envelopeLines(session: Session): Generator<string, void, undefined> {
  for (const call of session.calls) yield envelopeLine(call);
}

function clipLines(text: string, lines: number): string {
  const all = text.split('\n');
  return all.length > lines ? `${all.slice(0, lines).join('\n')}\n… (${all.length - lines} more lines)` : text;
}

/** The most of a call's input its one line shows whole (`summarizeCall` cuts longer texts). */
const LINE_SHOWS = 60;

/**
 * A call's input where its one line leaves some of it out: a command of several lines or longer than the line shows,
 * whole (under the description the model gave it); another input whose JSON is longer than that, as JSON (a plan's
 * steps, a subagent's prompt). Up to 40 lines, as a diff.
 */
function inputBlock(item: ToolCall): string | undefined {
  const typed = item.typedInput;
  if (typed?.command !== undefined) {
    const parts: string[] = [];
    if (typed.description?.trim()) parts.push(`*${escapeMarkdown(oneLine(typed.description, 200))}*`);
    if (typed.command.includes('\n') || typed.command.length > LINE_SHOWS) {
      parts.push(fence(clipLines(typed.command, 40), typed.shell === 'powershell' ? 'powershell' : 'sh'));
    }
    return parts.length > 0 ? parts.join('\n\n') : undefined;
  }
  const compact = item.input === undefined ? undefined : JSON.stringify(item.input);
  if (compact === undefined || (compact.length <= LINE_SHOWS && !compact.includes('\\n'))) return undefined;
  return fence(clipLines(JSON.stringify(item.input, null, 2), 40), 'json');
}

/** The lines written so far, as one piece (the pieces together are the lines joined by newlines, plus one). */
function* drain(out: string[]): Generator<string, void, undefined> {
  if (out.length === 0) return;
  yield `${out.join('\n')}\n`;
  out.length = 0;
}

/** What the Markdown export reads of a session: its header and counts, its subagents, and each thread's events. */
export interface MarkdownSource {
  readonly head: Pick<
    Session,
    'id' | 'title' | 'projectPath' | 'projectDir' | 'startedAt' | 'endedAt' | 'versions' | 'models'
  >;
  readonly counts: Pick<Session['counts'], 'toolCalls' | 'errors' | 'expectedErrors' | 'failedRequests'>;
  readonly subagents: readonly Omit<Subagent, 'events'>[];
  /** The transcript's problems (a malformed line, an orphan result), listed after the timeline: never dropped silently. */
  readonly issues: readonly ParseIssue[];
  /** The main thread's events (no key), or a subagent's. */
  events(key?: string): Iterable<TimelineEvent> | AsyncIterable<TimelineEvent>;
}

/** A loaded session as a `MarkdownSource`. */
export function markdownSourceOf(session: Session): MarkdownSource {
  const byKey = new Map(session.subagents.map((s) => [s.key, s]));
  return {
    head: session,
    counts: session.counts,
    subagents: session.subagents,
    issues: session.issues,
    events: (key) => (key === undefined ? session.events : (byKey.get(key)?.events ?? [])),
  };
}

/**
 * `toMarkdown` in pieces, one or a few events each, so a huge session is never one string. A document for people,
 * who `cat` it: the transcript's control characters shown as symbols (core's `documentLines`: an escape would clear
 * a reader's screen or retitle the window), wherever it is written; tabs and line breaks kept.
 */
export async function* markdownChunks(from: Session | MarkdownSource): AsyncGenerator<string, void, undefined> {
  for await (const chunk of markdownPieces(from)) yield documentLines(chunk);
}

async function* markdownPieces(from: Session | MarkdownSource): AsyncGenerator<string, void, undefined> {
  const source =
    'events' in from && Array.isArray(from.events) ? markdownSourceOf(from as Session) : (from as MarkdownSource);
  const session = source.head;
  const counts = source.counts;
  const out: string[] = [];
  // One line: a title of several lines (the first prompt) would put its own headings and lists above the metadata.
  // Every piece of the transcript written inert: as text, or code, never HTML (markdown-text.ts).
  out.push(`# ${escapeMarkdown(oneLine(session.title ?? '', Number.POSITIVE_INFINITY)) || 'Untitled session'}`, '');
  out.push(`- Session: ${inlineCode(session.id)}`);
  out.push(`- Project: ${inlineCode(session.projectPath ?? session.projectDir)}`);
  // local times with their zone: the page is read elsewhere, and a server writes its own zone's times
  const zone = zoneLabel(session.startedAt ?? session.endedAt);
  out.push(
    `- Time: ${formatDateTime(session.startedAt)} → ${formatDateTime(session.endedAt)}${zone === '' ? '' : ` (${zone})`}`,
  );
  const names = (list: readonly string[]) => list.map(escapeMarkdown).join(', ') || '?';
  out.push(`- Client: ${names(session.versions)}; model: ${names(session.models.map(modelLabel))}`);
  const failed = counts.failedRequests > 0 ? `; ${plural(counts.failedRequests, 'failed API request')}` : '';
  out.push(
    `- Tool calls: ${counts.toolCalls} (${counts.errors} errors, ${counts.expectedErrors} expected)${failed}`,
    '',
  );
  const ctx: MarkdownContext = {
    out,
    source,
    subagents: new Map(source.subagents.map((s) => [s.key, s])),
    shown: new Set<string>(),
    cwd: session.projectPath,
  };
  yield* writeEvents(source.events(), ctx, '');
  for (const sub of source.subagents) {
    if (!ctx.shown.has(sub.key)) yield* writeSubagent(sub, ctx, '');
  }
  writeIssues(source.issues, out);
  yield* drain(out);
}

/** A block of a tool's result that is an image. */
const isImage = (block: { readonly kind: string }): boolean => block.kind === 'image';

/** Problems listed at most; the rest counted. */
const MAX_ISSUES = 1000;

/** The transcript's problems, one line each (`file:line`, code, message), as the HTML export and `show` list them. */
function writeIssues(issues: readonly ParseIssue[], out: string[]): void {
  if (issues.length === 0) return;
  out.push(`## ${plural(issues.length, 'problem')} in the transcript`, '');
  for (const issue of issues.slice(0, MAX_ISSUES)) {
    out.push(
      `- ${inlineCode(`${issue.file}:${issue.line}`)} ${issue.code}: ${escapeMarkdown(oneLine(issue.message, 500))}`,
    );
  }
  if (issues.length > MAX_ISSUES) out.push(`- … ${issues.length - MAX_ISSUES} more`);
  out.push('');
}

/** What the Markdown writers share: the output lines, the subagents already written, the project path. */
interface MarkdownContext {
  readonly out: string[];
  readonly source: MarkdownSource;
  readonly subagents: ReadonlyMap<string, Omit<Subagent, 'events'>>;
  readonly shown: Set<string>;
  readonly cwd: string | undefined;
}

async function* writeEvents(
  events: Iterable<TimelineEvent> | AsyncIterable<TimelineEvent>,
  ctx: MarkdownContext,
  quote: string,
): AsyncGenerator<string, void, undefined> {
  const push = (text: string) => {
    // One by one: a text of a hundred thousand lines spread as arguments would overflow the stack.
    for (const line of quotedLines(text, quote)) ctx.out.push(line);
  };
  for await (const event of events) {
    if (event.kind === 'prompt') {
      // an image is named, not embedded (the JSON and HTML exports hold it)
      const images = event.images.length > 0 ? `\n\n*${imagesWord(event.images.length)}*` : '';
      // its other blocks named (a document: the JSON export holds them)
      const others = (event.others ?? []).map((b) => `\n\n*${escapeMarkdown(otherBlockLabel(b))}*`).join('');
      push(`## User · ${formatDateTime(event.timestamp)}\n\n${inertMarkdown(event.text)}${images}${others}\n`);
    } else if (
      (event.kind === 'hidden' && event.reason === 'command') ||
      (event.kind === 'system' && systemNoteLabel(event.record) === 'command')
    ) {
      // A slash command the user typed (often the opening prompt): `/review 12`. A client writes it as a user message
      // or, in some versions, as a system record.
      const line = commandLine(event.kind === 'hidden' ? event.text : (event.record.content ?? ''));
      if (line !== '') push(`## User · ${formatDateTime(event.record.timestamp)}\n\n${fence(line)}\n`);
    } else if (event.kind === 'assistant') {
      push(`### Assistant · ${formatDateTime(event.timestamp)}\n`);
      for (const [i, item] of event.items.entries()) {
        if (!repeatsUnwrittenThinking(event.items, i)) yield* writeItem(item, push, ctx, quote);
      }
    } else if (event.kind === 'system' || event.kind === 'hidden') {
      // The notes the timeline shows (an API error and its retry, a compaction, what a command printed), as notes.
      // its label, as show and the timeline name it (a system note without a subtype is "system")
      const shown =
        event.kind === 'system'
          ? timelineShows({ kind: 'system', subtype: event.record.subtype, content: event.record.content }) &&
            systemNoteLabel(event.record)
          : timelineShows({ kind: 'user', hidden: event.reason }) && event.reason;
      const text = event.kind === 'system' ? (event.record.content ?? '') : event.text;
      if (shown) {
        const words = noteFields(text);
        push(
          `*${escapeMarkdown(noteLabel(shown))}* · ${formatDateTime(event.record.timestamp)}${words ? `\n\n${inertMarkdown(words)}` : ''}\n`,
        );
      }
    } else if (event.kind === 'attachment' && attachmentShows(event.record)) {
      // a message the person sent while the agent worked, a hook's message: words no other record holds
      const words = noteFields(noteSourceOf(event.record) ?? '');
      // a queued message's pasted images, named as a prompt's are
      const pasted = attachmentImages(event.record).length;
      const images = pasted > 0 ? `\n\n*${imagesWord(pasted)}*` : '';
      push(
        `*${escapeMarkdown(noteLabel(attachmentLabel(event.record)))}* · ${formatDateTime(event.record.timestamp)}${words ? `\n\n${inertMarkdown(words)}` : ''}${images}\n`,
      );
    } else if (event.kind === 'unknown') {
      // Never dropped silently: a record type we do not know is exported with its raw data.
      push(
        `*Unknown record ${inlineCode(event.record.type)}*\n\n${fence(JSON.stringify(event.record.raw, null, 2))}\n`,
      );
    }
    yield* drain(ctx.out);
  }
}

async function* writeItem(
  item: AssistantItem,
  push: (text: string) => void,
  ctx: MarkdownContext,
  quote: string,
): AsyncGenerator<string, void, undefined> {
  const { subagents, shown, cwd } = ctx;
  switch (item.kind) {
    case 'text':
      push(`${inertMarkdown(item.text)}\n`);
      break;
    case 'thinking':
      push(
        item.redacted
          ? '*(redacted thinking)*\n'
          : isThinkingUnwritten(item)
            ? `*(${UNWRITTEN_THINKING})*\n`
            : `<details><summary>Thinking</summary>\n\n${inertMarkdown(item.thinking)}\n\n</details>\n`,
      );
      break;
    case 'tool-call': {
      const ms = primaryDurationMs(item);
      const status =
        item.status === 'error'
          ? `error: ${item.result?.error?.category ?? 'other'} (${item.result?.error?.severity ?? 'error'})`
          : item.status;
      push(
        `- **${escapeMarkdown(summarizeCall(item, cwd))}** · ${status}${ms !== undefined ? ` · ${formatDuration(ms)}` : ''}`,
      );
      // What a file call changed (or tried to), as a diff: the one line above names the file only.
      const change = callChangeDiff(item);
      if (change !== undefined) push(`\n${fence(clipLines(change, 40), 'diff')}`);
      else {
        const input = inputBlock(item);
        if (input !== undefined) push(`\n${input}`);
      }
      const output = item.result ? resultText(item.result.content) : '';
      if (output.trim() !== '') push(`\n${fence(clipLines(output, 20))}\n`);
      else push('');
      // an image the tool sent back is named, not embedded (the JSON and HTML exports hold it), as a prompt's is
      const content = item.result?.content;
      const images = typeof content === 'string' || content === undefined ? 0 : content.filter(isImage).length;
      if (images > 0) push(`*${imagesWord(images)} in its result*\n`);
      const sub = item.subagentKey ? subagents.get(item.subagentKey) : undefined;
      if (sub && !shown.has(sub.key)) yield* writeSubagent(sub, ctx, `${quote}> `);
      break;
    }
    case 'other-block':
      // Never dropped silently: named, with its raw data.
      push(
        `*${escapeMarkdown(otherBlockLabel(item.block))}*\n\n${fence(JSON.stringify(otherBlockRaw(item.block), null, 2))}\n`,
      );
      break;
    default:
      item satisfies never;
  }
}

async function* writeSubagent(
  sub: Omit<Subagent, 'events'>,
  ctx: MarkdownContext,
  quote: string,
): AsyncGenerator<string, void, undefined> {
  const { out } = ctx;
  ctx.shown.add(sub.key);
  out.push(
    `${quote}**Subagent${sub.agentType ? ` ${escapeMarkdown(sub.agentType)}` : ''}${sub.agentId ? ` ${inlineCode(sub.agentId)}` : ''}**`,
  );
  out.push(quote.trimEnd());
  yield* writeEvents(ctx.source.events(sub.key), ctx, quote);
  out.push('');
}

/** A streamed session as the Markdown export reads it, each part through `parts` (its counts need its calls met). */
export async function markdownSourceOfStream(stream: SessionStream, parts: SessionParts): Promise<MarkdownSource> {
  const { counts, issues } = await stream.tail();
  return {
    head: parts.head(stream.head),
    counts,
    issues,
    subagents: stream.subagents.map((sub) => parts.subagent(sub)),
    events: (key) => mapped(stream.events(key), parts.event),
  };
}
