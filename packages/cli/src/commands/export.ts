import type { AssistantItem, Session, Subagent, TimelineEvent } from '@agentdash/core';
import { commandLine, primaryDurationMs, resultText } from '@agentdash/core';
import { oneLine, summarizeCall } from '@agentdash/core/present';
import { redactSession } from '@agentdash/core/secrets';
import { type ExportAssets, type ExportRedaction, readExportAssets, sessionHtmlChunks } from '@agentdash/server';
import { flag, str } from '../args.js';
import { envelopeOf } from '../core-extras.js';
import { UsageError } from '../errors.js';
import { formatDateTime, formatDuration } from '../format.js';
import type { TextOut } from '../io.js';
import { openFileOutput } from '../output/file-output.js';
import { jsonChunks } from '../output/json-chunks.js';
import type { EnvelopeLineJson } from '../output/json-types.js';
import { escapeMarkdown, fence } from '../output/markdown-text.js';
import { terminalOut } from '../output/terminal-out.js';
import { writeChunks } from '../output/write-chunks.js';
import { COMMON_HELP, type CommandSpec, PATHS_HELP } from './common.js';
import { resolveSession } from './resolve-session.js';

const formats = ['json', 'envelope', 'markdown', 'html'] as const;
type Format = (typeof formats)[number];

export const exportCommand: CommandSpec = {
  name: 'export',
  usage: 'agentdash export SESSION --format json|envelope|markdown|html [-o FILE] [--no-redact] [PATH…]',
  summary: 'export one session as JSON, tool-call JSON Lines, Markdown or one self-contained HTML file',
  help: `Formats:
  json       the enriched session (as show --json): every call with its typed result nested
  envelope   JSON Lines, one line per tool call (subagents' included), in file order:
             {"id","tool","success":true,"data":{…}} or {"id","tool","success":false,"error":"…"}
  markdown   a readable transcript
  html       ONE self-contained page showing the whole session as the dashboard does (tool renderers,
             subagents); it needs no server and no network, so it can be opened from a file or sent to someone

Secrets (API keys and tokens of common providers, cloud keys, private keys, passwords in URLs, .env-style
assignments: see docs/secrets.md) are replaced by [REDACTED:<rule>] in every format; what was redacted and where
is reported on stderr. --no-redact exports the session as it is.

Printed on a terminal, the text's control characters are shown as symbols (␛, ␇), as show does; into a pipe or a
file (-o), the export is written exactly.

Options:
  -o, --output FILE  write to FILE instead of standard output
  --no-redact        keep secrets (the export is for you alone)

SESSION: a session id, a unique prefix of one, <id>@<project folder> (when two folders hold that id), or a
transcript file.
${PATHS_HELP}

${COMMON_HELP}`,
  options: {
    format: { type: 'string', short: 'f' },
    output: { type: 'string', short: 'o' },
    'no-redact': { type: 'boolean' },
  },
  async run(ctx, positionals) {
    const format = (str(ctx.values, 'format') ?? (ctx.json ? 'json' : undefined)) as Format | undefined;
    if (format === undefined) throw new UsageError(`export needs --format ${formats.join('|')}`);
    if (!formats.includes(format))
      throw new UsageError(`--format must be one of ${formats.join(', ')}, got "${format}"`);
    const output = str(ctx.values, 'output');
    const redact = !flag(ctx.values, 'no-redact');
    const [arg, ...rest] = positionals;
    const id = await resolveSession(ctx, arg, rest);
    const index = await ctx.openIndex();
    const loaded = await index.loadSession(id);
    const redacted = redact ? redactSession(loaded) : undefined;
    const session = redacted?.session ?? loaded;
    // HTML needs the viewer's assets: read them before anything is written.
    const assets = format === 'html' ? await readExportAssets() : undefined;
    const extras: ExportExtras = {
      summary: index.getSession(id),
      assets,
      redaction: {
        redacted: redact,
        total: redacted?.report.total ?? 0,
        summary: redacted ? redacted.report.summary() : 'not redacted',
      },
    };
    if (output === undefined) {
      // On a terminal the export is read, not kept: its text is shown as `show` shows it, controls made visible (an
      // escape in a prompt would clear the screen). Into a pipe or a file, the bytes are the export's, as they are.
      const out = ctx.io.stdout.isTTY === true ? terminalOut(ctx.io.stdout) : ctx.io.stdout;
      await writeExport(out, format, session, extras);
    } else {
      // "wrote FILE" only once the file is closed with no error; a file left half-written is removed.
      const file = await openFileOutput(output);
      try {
        await writeExport(file, format, session, extras);
        await file.close();
      } catch (error) {
        file.discard();
        throw error;
      }
    }
    if (redacted && redacted.report.total > 0) {
      ctx.io.stderr.write(`agentdash: ${redacted.report.summary()}; --no-redact keeps them\n`);
    }
    if (output !== undefined) ctx.io.stderr.write(`agentdash: wrote ${output}\n`);
  },
};

interface ExportExtras {
  readonly summary: unknown;
  readonly assets: ExportAssets | undefined;
  readonly redaction: ExportRedaction;
}

async function writeExport(out: TextOut, format: Format, session: Session, extras: ExportExtras): Promise<void> {
  // Every format is written in pieces: a session of hundreds of MB is never one string.
  switch (format) {
    case 'json':
      await writeChunks(out, jsonLines(session));
      return;
    case 'envelope':
      await writeChunks(out, envelopeLines(session));
      return;
    case 'markdown':
      await writeChunks(out, markdownChunks(session));
      return;
    case 'html':
      if (!extras.assets) return;
      await writeChunks(out, sessionHtmlChunks(session, extras.summary, extras.assets, extras.redaction));
      return;
    default:
      format satisfies never;
  }
}

function* jsonLines(value: unknown): Generator<string, void, undefined> {
  yield* jsonChunks(value);
  yield '\n';
}

function* envelopeLines(session: Session): Generator<string, void, undefined> {
  for (const call of session.calls) {
    const line: EnvelopeLineJson = { id: call.id, tool: call.name, ...envelopeOf(call) };
    yield `${JSON.stringify(line)}\n`;
  }
}

function clipLines(text: string, lines: number): string {
  const all = text.split('\n');
  return all.length > lines ? `${all.slice(0, lines).join('\n')}\n… (${all.length - lines} more lines)` : text;
}

/** The session as Markdown: header, then the timeline with subagents nested as quoted sections. */
export function toMarkdown(session: Session): string {
  return [...markdownChunks(session)].join('');
}

/** The lines written so far, as one piece (the pieces together are the lines joined by newlines, plus one). */
function* drain(out: string[]): Generator<string, void, undefined> {
  if (out.length === 0) return;
  yield `${out.join('\n')}\n`;
  out.length = 0;
}

/** `toMarkdown` in pieces, one or a few events each, so a huge session is never one string. */
export function* markdownChunks(session: Session): Generator<string, void, undefined> {
  const out: string[] = [];
  // One line: a title of several lines (the first prompt) would put its own headings and lists above the metadata.
  out.push(`# ${oneLine(session.title ?? '', Number.POSITIVE_INFINITY) || 'Untitled session'}`, '');
  out.push(`- Session: \`${session.id}\``);
  out.push(`- Project: \`${session.projectPath ?? session.projectDir}\``);
  out.push(`- Time: ${formatDateTime(session.startedAt)} → ${formatDateTime(session.endedAt)}`);
  out.push(`- Client: ${session.versions.join(', ') || '?'}; model: ${session.models.join(', ') || '?'}`);
  out.push(
    `- Tool calls: ${session.counts.toolCalls} (${session.counts.errors} errors, ${session.counts.expectedErrors} expected)`,
    '',
  );
  const ctx: MarkdownContext = {
    out,
    subagents: new Map(session.subagents.map((s) => [s.key, s])),
    shown: new Set<string>(),
    cwd: session.projectPath,
  };
  yield* writeEvents(session.events, ctx, '');
  for (const sub of session.subagents) {
    if (!ctx.shown.has(sub.key)) yield* writeSubagent(sub, ctx, '');
  }
  yield* drain(out);
}

/** What the Markdown writers share: the output lines, the subagents already written, the project path. */
interface MarkdownContext {
  readonly out: string[];
  readonly subagents: ReadonlyMap<string, Subagent>;
  readonly shown: Set<string>;
  readonly cwd: string | undefined;
}

function* writeEvents(
  events: readonly TimelineEvent[],
  ctx: MarkdownContext,
  quote: string,
): Generator<string, void, undefined> {
  const push = (text: string) => {
    for (const line of text.split('\n')) ctx.out.push(`${quote}${line}`.trimEnd());
  };
  for (const event of events) {
    if (event.kind === 'prompt') {
      push(`## User · ${formatDateTime(event.timestamp)}\n\n${event.text}\n`);
    } else if (event.kind === 'hidden' && event.reason === 'command') {
      // A slash command the user typed (often the opening prompt): `/review 12`.
      const line = commandLine(event.text);
      if (line !== '') push(`## User · ${formatDateTime(event.record.timestamp)}\n\n${fence(line)}\n`);
    } else if (event.kind === 'assistant') {
      push(`### Assistant · ${formatDateTime(event.timestamp)}\n`);
      for (const item of event.items) yield* writeItem(item, push, ctx, quote);
    } else if (event.kind === 'unknown') {
      // Never dropped silently: a record type we do not know is exported with its raw data.
      push(`*Unknown record \`${event.record.type}\`*\n\n${fence(JSON.stringify(event.record.raw, null, 2))}\n`);
    }
    yield* drain(ctx.out);
  }
}

function* writeItem(
  item: AssistantItem,
  push: (text: string) => void,
  ctx: MarkdownContext,
  quote: string,
): Generator<string, void, undefined> {
  const { subagents, shown, cwd } = ctx;
  switch (item.kind) {
    case 'text':
      push(`${item.text}\n`);
      break;
    case 'thinking':
      push(
        item.redacted
          ? '*(redacted thinking)*\n'
          : `<details><summary>Thinking</summary>\n\n${item.thinking}\n\n</details>\n`,
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
      const output = item.result ? resultText(item.result.content) : '';
      if (output.trim() !== '') push(`\n${fence(clipLines(output, 20))}\n`);
      else push('');
      const sub = item.subagentKey ? subagents.get(item.subagentKey) : undefined;
      if (sub && !shown.has(sub.key)) yield* writeSubagent(sub, ctx, `${quote}> `);
      break;
    }
    case 'other-block':
      break;
    default:
      item satisfies never;
  }
}

function* writeSubagent(sub: Subagent, ctx: MarkdownContext, quote: string): Generator<string, void, undefined> {
  const { out } = ctx;
  ctx.shown.add(sub.key);
  out.push(
    `${quote}**Subagent${sub.agentType ? ` ${sub.agentType}` : ''}${sub.agentId ? ` \`${sub.agentId}\`` : ''}**`,
  );
  out.push(quote.trimEnd());
  yield* writeEvents(sub.events, ctx, quote);
  out.push('');
}
