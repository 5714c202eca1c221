import type { ParseIssue, Session } from '@agentdash/core';
import { headerCallOf, headerCountsOf } from '@agentdash/core';
import {
  COMPACTION_RUN,
  costGapsNote,
  isCompactionRun,
  modelLabel,
  noUsageText,
  spanMs,
  timeIsOwn,
} from '@agentdash/core/present';
import { redactIdentifiers } from '@agentdash/core/secrets';
import type { TokenCounts } from '@agentdash/core/usage';
import type { CopiedFrom } from '@agentdash/index';
import { streamsBetter } from '@agentdash/server/export-formats';
import { flag, str } from '../args.js';
import { UsageError } from '../errors.js';
import {
  formatCost,
  formatDay,
  formatDuration,
  formatRange,
  formatTokenLine,
  plural,
  realErrors,
  sumTokens,
  terminalText,
} from '../format.js';
import type { Colors } from '../io.js';
import { writeJsonStream, writeSessionJson } from '../output/session-json.js';
import { writeChunks } from '../output/write-chunks.js';
import { wrapLines } from '../wrap.js';
import { COMMON_HELP, type CommandSpec, PATHS_HELP, SESSION_HELP } from './common.js';
import { resolveSession } from './resolve-session.js';
import { callDetail, findCall } from './show-call.js';
import { callsText, copiedText, errorsInWords, promptsText, requestsText, responsesText } from './show-copies.js';
import { printFiles } from './show-files.js';
import { issueLines } from './show-issues.js';
import { drain, type RenderContext, renderEvents, renderSubagent } from './show-timeline.js';
import { archivedLines, heldLines, loadPartial, printVersions } from './show-versions.js';

export const showCommand: CommandSpec = {
  name: 'show',
  usage: 'agentdash show SESSION [PATH…] [--json] [--files | --call ID] [--versions | --partial]',
  summary: 'a readable timeline of one session',
  help: `Prompts, assistant text, and each tool call with a one-line summary (Edit src/a.ts +3 −1, Bash npm test → exit 1),
its error category and severity and its duration; subagents are indented under the call that started them.
--json prints the whole session: every call with its typed result nested.
  --files      the files its file tools read, wrote, edited, created, deleted or moved, and those its shell
               commands plainly did so to (cat, >, tee, sed -i, rm, mv, cp): those it changed (with their lines
               added and removed), then those it did not change, each with its failed calls
  --call ID    one call whole: its input and everything it answered, with its status, error class and
               duration (ID: a call's id as --json and search --json give it, or the start of one)

A transcript that lost records on disk (cut short, replaced, no longer parsing) is shown at its last complete
version, with a line saying a newer partial copy is kept in the archive:
  --versions   list the session's files held that way: bytes and records of both copies, and why
  --partial    show the session as the newer partial copies make it (with --json too)

${SESSION_HELP}
${PATHS_HELP}

${COMMON_HELP}`,
  options: {
    partial: { type: 'boolean' },
    versions: { type: 'boolean' },
    files: { type: 'boolean' },
    call: { type: 'string' },
  },
  async run(ctx, positionals) {
    const [arg, ...rest] = positionals;
    const callRef = str(ctx.values, 'call');
    if (callRef !== undefined && (flag(ctx.values, 'files') || flag(ctx.values, 'versions'))) {
      throw new UsageError('--call shows one call: not with --files or --versions');
    }
    const id = await resolveSession(ctx, arg, rest);
    const index = await ctx.openIndex();
    if (flag(ctx.values, 'versions')) {
      printVersions(ctx, await index.sessionVersions(id));
      return;
    }
    const partial = flag(ctx.values, 'partial');
    if (flag(ctx.values, 'files')) {
      printFiles(ctx, redactIdentifiers(partial ? await loadPartial(ctx, id) : await index.loadSession(id)));
      return;
    }
    // A file that cannot be read now (permissions changed, removed): say why the timeline is empty or short.
    const noteUnreadable = (issues: readonly ParseIssue[]) => {
      for (const issue of issues) {
        if (issue.code === 'unreadable_file') ctx.note(`cannot read ${issue.file}: ${issue.message}; shown without it`);
      }
    };
    // Its title, project path, cwd and branches with their secrets redacted (docs/secrets.md); content as it is.
    // Written as it is read: a session of hundreds of MB is never held, nor one string.
    if (ctx.json && !partial && callRef === undefined && streamsBetter(index.sessionBytes(id))) {
      const stream = await index.streamSession(id);
      noteUnreadable(redactIdentifiers(stream.known.issues));
      await writeSessionJson(ctx, stream);
      return;
    }
    const session = redactIdentifiers(partial ? await loadPartial(ctx, id) : await index.loadSession(id));
    noteUnreadable(session.issues);
    if (callRef !== undefined) {
      const call = findCall(session, callRef);
      if (ctx.json) await writeJsonStream(ctx, call);
      else ctx.io.stdout.write(callDetail(call, ctx.color));
      return;
    }
    if (ctx.json) {
      await writeJsonStream(ctx, session);
      return;
    }
    // The cost as the sessions list and the dashboard give it (priced by the index, the same --prices).
    const summary = index.getSession(id);
    // with what it leaves out (a model without a price, responses without input), as usage's notes say it
    const gaps = summary === undefined ? undefined : costGapsNote(summary);
    const cost =
      summary === undefined
        ? undefined
        : // the models' names are the transcripts' text: made safe for the terminal
          terminalText(
            `${formatCost(summary.costUsd, summary)}${gaps === undefined ? '' : ` (${gaps.charAt(0).toLowerCase()}${gaps.slice(1)}${summary.unpricedModels.length > 0 ? '; --prices FILE adds prices' : ''})`}`,
          );
    // On a terminal (or with COLUMNS) a long line is broken between words, under its text: never wrapped mid-word.
    const width = ctx.width;
    const c = ctx.color;
    const notes = [
      ...(partial
        ? [
            `${c.yellow('partial')}  the newer partial copy kept in the archive, not the complete version shown by default`,
          ]
        : heldLines(redactIdentifiers((await index.sessionVersions(id)).held), id, c)),
      ...issueLines(session.issues, id, c, session.files.find((f) => f.role === 'main')?.path),
      ...archivedLines(summary, c),
    ];
    const wall = partial || summary === undefined ? 'span' : summary.durationMs;
    // Their titles and references redacted, as every title `show` prints.
    const copiedFrom = partial ? [] : redactIdentifiers(index.sessionCopies(id));
    // The tokens it owns, as its cost: a resume's copies count for the session they come from (the index says).
    const tokens = summary === undefined || partial ? undefined : summary.usage;
    const own = {
      cost,
      tokens,
      inputUnrecordedModels: summary?.inputUnrecordedModels,
      outputUnrecordedModels: summary?.outputUnrecordedModels,
      // the model's responses and the prompts as the list counts them (its own: a resume's copies apart); an
      // API-error answer the client wrote is no response
      responses: summary === undefined || partial ? undefined : Math.max(0, summary.messages - summary.prompts),
      prompts: summary === undefined || partial ? undefined : summary.prompts,
    };
    const chunks = timelineChunks(session, c, ctx.verbose, own, notes, wall, copiedFrom);
    await writeChunks(
      ctx.io.stdout,
      width === undefined ? chunks : mapChunks(chunks, (chunk) => wrapLines(chunk, width, timePrefix)),
    );
  },
};

/** A colour code of the CLI's own, around a time or a mark. */
const C = '(?:\u001b\\[[0-9;]*m)*';
/** A timeline line's start: its indent, its time (or label), two spaces or more, its mark and a space. */
const PREFIX = new RegExp(`^ *${C}\\S+${C} {2,}${C}\\S+${C} `);
const timePrefix = (line: string): string => PREFIX.exec(line)?.[0] ?? '';

function* mapChunks(chunks: Iterable<string>, map: (chunk: string) => string): Generator<string, void, undefined> {
  for (const chunk of chunks) yield map(chunk);
}

/**
 * The time line's figure: the main thread's wall time, the one figure of the list and the dashboard (none without a
 * main thread, as there); the span of every record for a partial copy.
 */
function durationText(session: Session, wallMs: number | undefined | 'span'): string | undefined {
  if (wallMs !== 'span') return wallMs === undefined ? undefined : `${formatDuration(wallMs)} wall`;
  return session.startedAt && session.endedAt ? formatDuration(spanMs(session.startedAt, session.endedAt)) : undefined;
}

/** A session's timeline as text, in pieces of one or a few events each (written as they come). */
function* timelineChunks(
  session: Session,
  c: Colors,
  verbose: boolean,
  /** The session's cost and tokens as the sessions list gives them (tokens: the transcript's when not given). */
  own: {
    readonly cost: string | undefined;
    readonly tokens: TokenCounts | undefined;
    /** Models some of whose responses recorded no input: the input shown is a lower bound. */
    readonly inputUnrecordedModels?: readonly string[] | undefined;
    /** Models some of whose responses kept only the stream's first output count: the output shown is a lower bound. */
    readonly outputUnrecordedModels?: readonly string[] | undefined;
    /** Its own responses and prompts, as the list counts them (a resume's or fork's copies apart). */
    readonly responses?: number | undefined;
    readonly prompts?: number | undefined;
  },
  notes: readonly string[],
  /**
   * The wall time the sessions list and the dashboard give (`SessionSummary.durationMs`: none for records without a
   * span), or `'span'` for the span of every record (a partial copy, which the index does not summarise).
   */
  wallMs: number | undefined | 'span',
  /** What a resume or fork copied into the transcript, from which sessions (counted there). */
  copiedFrom: readonly CopiedFrom[],
): Generator<string, void, undefined> {
  const out: string[] = [];
  // The errors of the session's own calls, by the header's rule, as the sessions list counts them (the copies' are
  // counted where they come from).
  const copied = new Set(copiedFrom.flatMap((from) => from.callIds));
  const counts =
    copied.size === 0
      ? session.counts
      : headerCountsOf({
          calls: session.calls.filter((call) => !copied.has(call.id)).map(headerCallOf),
          main: undefined,
          threads: [],
        });
  // The client's cache warm-ups: not subagents, but billed, so the tokens line (which holds what was written of them)
  // says how many.
  const warmups = session.counts.warmups === 0 ? '' : c.dim(` (${plural(session.counts.warmups, 'warm-up request')})`);
  const errorsText = errorsInWords(counts);
  const errorsTextColoured = realErrors(counts) > 0 ? c.red(errorsText) : errorsText;
  out.push(c.bold(terminalText(session.title ?? '(untitled session)')));
  out.push(`${c.dim('session')}  ${terminalText(session.id)}`);
  out.push(`${c.dim('project')}  ${terminalText(session.projectPath ?? session.projectDir)}`);
  // A fork's or resume's wall time leaves out the conversation it copied (the index's `own_from_ms`).
  const resumed = timeIsOwn(copiedFrom);
  const duration = durationText(session, wallMs);
  out.push(
    `${c.dim('time')}     ${formatRange(session.startedAt, session.endedAt)}${duration ? ` (${duration}${resumed && wallMs !== 'span' ? ' of its own' : ''})` : ''}`,
  );
  out.push(
    `${c.dim('client')}   ${terminalText(session.versions.join(', ') || '?')}   ${c.dim('model')} ${terminalText(session.models.map(modelLabel).join(', ') || '?')}`,
  );
  out.push(
    `${c.dim('counts')}   ${promptsText(session.counts.prompts, own.prompts)}, ${responsesText(
      own.responses ?? session.counts.assistantMessages,
      copiedFrom,
    )}, ${callsText(session.counts.toolCalls, copiedFrom)}, ${errorsTextColoured}${requestsText(session.counts, c)}, ${plural(session.subagents.length, 'subagent')}`,
  );
  out.push(
    `${c.dim('tokens')}   ${
      noUsageText(own.responses ?? session.counts.assistantMessages, session.usageByModel) ??
      formatTokenLine(own.tokens ?? sumTokens(Object.values(session.usageByModel)), own)
    }${warmups}`,
  );
  if (own.cost !== undefined) out.push(`${c.dim('cost')}     ${own.cost}`);
  for (const from of copiedFrom) out.push(`${c.dim('copied')}   ${copiedText(from)}`);
  for (const issue of session.issues) {
    if (issue.code === 'missing_main_file') {
      out.push(`${c.yellow('warning')}  ${terminalText(`${issue.message} (${issue.file})`)}`);
    }
  }
  out.push(...notes);
  out.push('');
  const ctx: RenderContext = {
    out,
    c,
    verbose,
    subagents: new Map(session.subagents.map((s) => [s.key, s])),
    shown: new Set<string>(),
    copied,
    cwd: session.projectPath,
    day: formatDay(session.startedAt),
  };
  yield* renderEvents(session.events, 0, ctx);
  const unlinked = session.subagents.filter((s) => !ctx.shown.has(s.key));
  for (const sub of unlinked) {
    const what = isCompactionRun(sub.agentId)
      ? `compaction ${sub.agentId} (${COMPACTION_RUN})`
      : `subagent ${sub.agentType ?? ''} ${sub.agentId ?? sub.key} (not linked to a call)`;
    out.push('', c.magenta(terminalText(what)));
    yield* renderSubagent(sub, 1, ctx);
  }
  yield* drain(out);
}
