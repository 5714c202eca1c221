import { isAbsolute, resolve } from 'node:path';
import { redactIdentifiers } from '@agentdash/core/secrets';
import type { MeasuredTimeTotals, SessionFilter, SessionSummary } from '@agentdash/index';
import { addMeasured, type MeasuredSession, type StoredOutput } from '@agentdash/index/warm';
import { filterOptions, type Parsed, str } from '../args.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import {
  formatCompact,
  formatCount,
  formatDateTime,
  formatDuration,
  formatErrors,
  plural,
  realErrors,
  shortModel,
} from '../format.js';
import { writeStored } from '../io.js';
import type { SessionJson, SessionsJson } from '../output/json-types.js';
import { type Cell, renderTable, styled } from '../table.js';
import { formatCost } from '../usage-report.js';
import { type CommandSpec, cutToLimit, filteredHelp, jsonText, refreshedScope } from './common.js';
import { refsNamingOne } from './session-refs.js';
import { noteUnmatchedModel, noteUnmatchedProject, noteUnmatchedVersion } from './usage-model-note.js';

const FILE_HELP = '  --file PATH      sessions whose calls read or changed PATH (see above)';

export const sessionsCommand: CommandSpec = {
  name: 'sessions',
  usage: 'agentdash sessions [PATH…] [filters] [--json]',
  summary: 'list sessions, newest first',
  help: filteredHelp(`One row per session: agent, start, duration, messages, tool calls, errors (real ones, then "(+N)"
expected ones), cost, client version(s), model(s), project and title (custom title, AI title, summary or first
prompt); a narrow terminal shows the columns that fit. --json adds usage, cost and where the time went. Empty and
warm-up sessions (no tool call of their own, and no message of their own or no title) are listed too: the
dashboard's list hides them and stats does not count them. A resumed or forked session counts its own messages,
tool calls and cost: what it copied from an earlier session counts there.

--file PATH lists the sessions whose file tools (Read, Write, Edit, a patch, …) or shell commands (cat, >, rm, mv,
…) read or changed a file, as each session's Files page lists them. An absolute path matches that path exactly. A
relative one matches every path that ends with it on whole segments: src/app.ts is /home/u/proj/src/app.ts (the
file under the current folder, and the same file of another folder, as the sessions show it), never
/home/u/proj/src/xapp.ts; one with .. is resolved against the current folder first.`).replace(
    '\n\nFilters:\n',
    `\n\nFilters:\n${FILE_HELP}\n`,
  ),
  options: { ...filterOptions, file: { type: 'string' } },
  async run(ctx, positionals) {
    if (ctx.json) {
      const out = await sessionsJson(ctx, positionals);
      if (typeof out === 'string') ctx.io.stdout.write(out);
      else writeStored(ctx.io.stdout, out);
      return;
    }
    const { filter } = await sessionsScope(ctx, positionals);
    const { listed, more } = await limitedSessions(ctx, filter);
    // The agents' own telemetry, where `serve` received it: the session's model and tool time as measured
    const measuredOf = await ctx.measuredBySession();
    // Titles, project paths and branches are shown with their secrets redacted (docs/secrets.md).
    const sessions = listed.map(redactIdentifiers);
    if (sessions.length === 0) {
      ctx.io.stdout.write('No sessions.\n');
      await noteUnmatchedModel(ctx, filter, 0);
      await noteUnmatchedVersion(ctx, filter, 0);
      await noteUnmatchedProject(ctx, filter, 0);
      return;
    }
    const c = ctx.color;
    // Expected errors apart, as the dashboard shows them (`0 +2 expected`), in fewer columns: `0 (+2)`; then the
    // requests the agent gave up on (`1 API`, `2 +1 API`); red only when some are real.
    const errorsCell = (s: { errors: number; expectedErrors: number; apiErrors?: number }): Cell => {
      const calls = formatErrors(s).replace(/ \+(\S+) expected$/, ' (+$1)');
      const api = s.apiErrors ?? 0;
      const text = api === 0 ? calls : calls === '0' ? `${api} API` : `${calls} +${api} API`;
      if (realErrors(s) > 0 || api > 0) return styled(text, c.red);
      return s.expectedErrors > 0 ? styled(text, c.dim) : text;
    };
    // Each reference as short as it can be and still name one session of the index, listed or not (Codex's
    // time-ordered ids share their first 8), as the dashboard shows it; an id two project folders hold keeps its
    // `@<folder>`.
    const ids = await ctx.sessionIds();
    const short = refsNamingOne(
      { sessionIds: () => ids },
      sessions.map((s) => s.ref),
    );
    const rows = sessions.map((s): Cell[] => [
      ((ref: string) => (s.isLive ? styled(ref, c.green) : s.archived ? styled(`${ref} (archived)`, c.dim) : ref))(
        short.get(s.ref) ?? s.ref,
      ),
      s.agent,
      formatDateTime(s.startedAt),
      formatDuration(s.durationMs),
      formatCompact(s.messages),
      formatCount(s.toolCalls),
      errorsCell(s),
      formatCost(s.costUsd, s),
      s.versions.join(','),
      s.models.map(shortModel).join(','),
      s.projectPath ?? s.projectDir,
      (s.title ?? '').replace(/\s+/g, ' '),
    ]);
    ctx.io.stdout.write(
      renderTable(
        // In a narrow terminal, title, project and model are cut first, then the columns least needed left out
        // (version, messages, duration, model, project, agent, in that order); the figures (calls, errors, cost)
        // stay: the title is cut further for them.
        [
          { header: 'SESSION' },
          { header: 'AGENT', drop: 6 },
          { header: 'STARTED' },
          { header: 'DURATION', align: 'right', drop: 3 },
          { header: 'MSGS', align: 'right', drop: 2 },
          { header: 'CALLS', align: 'right' },
          { header: 'ERRORS', align: 'right' },
          { header: 'COST', align: 'right' },
          { header: 'VERSION', max: 24, min: 8, drop: 1 },
          { header: 'MODEL', max: 32, min: 10, drop: 4 },
          { header: 'PROJECT', max: 40, min: 12, cut: 'start', drop: 5 },
          { header: 'TITLE', max: 100, min: 20 },
        ],
        rows,
        { width: ctx.width, headerStyle: c.bold },
      ),
    );
    const archived = sessions.filter((s) => s.archived).length;
    // an archived session's transcripts are gone from disk (the agent's cleanup): the index's archive holds them
    const gone = archived === 0 ? '' : `; ${archived} archived (gone from disk, kept in the index's archive)`;
    ctx.io.stdout.write(`${plural(sessions.length, 'session')}${more}${gone}\n`);
    const measured = measuredLine(sessions, measuredOf);
    if (measured !== undefined) ctx.io.stdout.write(`${measured}\n`);
  },
};

/** `--file PATH` as the index matches it: resolved when absolute or when it climbs (`..`), else as written. */
export function fileArg(values: Parsed['values']): { readonly file?: string } {
  const file = str(values, 'file');
  if (file === undefined) return {};
  if (file.trim() === '') throw new UsageError('--file needs a path');
  return { file: isAbsolute(file) || /(?:^|[\\/])\.\.(?:[\\/]|$)/.test(file) ? resolve(file) : file };
}

/** `refreshedScope` with `--file` (read first: a bad option is said before anything is read). */
async function sessionsScope(ctx: Context, positionals: readonly string[]) {
  const file = fileArg(ctx.values);
  const { paths, filter } = await refreshedScope(ctx, positionals);
  return { paths, filter: { ...filter, ...file } satisfies SessionFilter };
}

/** The sessions the filter selects, and whether `--limit` left some out (one more is asked for to tell). */
async function limitedSessions(
  ctx: Context,
  filter: SessionFilter,
): Promise<{ listed: SessionSummary[]; truncated: boolean; more: string }> {
  if (filter.limit === undefined) return { listed: await ctx.listSessions(filter), truncated: false, more: '' };
  const { items, truncated, more } = cutToLimit(
    await ctx.listSessions({ ...filter, limit: filter.limit + 1 }),
    filter.limit,
  );
  return { listed: items, truncated, more };
}

/**
 * The `--json` output, kept as a stored answer (thousands of sessions are most of the command's time to
 * list, redact and write out) and given back while nothing is indexed since. Not kept when it depends on the clock
 * or on telemetry, neither of which a refresh tells of: with --since or --until (an age is another question on every
 * run), while a listed session is live (it stops being live as time passes), or with a session telemetry measured.
 */
async function sessionsJson(ctx: Context, positionals: readonly string[]): Promise<string | StoredOutput> {
  const { paths, filter } = await sessionsScope(ctx, positionals);
  // The agents' own telemetry, where `serve` received it: the session's model and tool time as measured
  const measuredOf = await ctx.measuredBySession();
  const render = async () => {
    const { listed, truncated } = await limitedSessions(ctx, filter);
    const out: SessionsJson = {
      // read for want of an agent home: said in the document, not only on stderr (`writeJson` does it elsewhere)
      ...(ctx.showingSamples ? { samples: true as const } : {}),
      sessions: listed.map((s) => {
        const measured = measuredOf.get(s.id);
        // without a wall time (records that give no span) where the time went is unknown, not every part 0
        const known = s.durationMs === undefined ? { ...s, time: null } : s;
        return (measured === undefined ? known : { ...known, measured }) as SessionJson;
      }),
      truncated,
    };
    // Titles, project paths and branches with their secrets redacted: `jsonText` does it for the whole answer.
    return { text: jsonText(out), keep: !listed.some((s) => s.isLive) };
  };
  const timed = str(ctx.values, 'since') !== undefined || str(ctx.values, 'until') !== undefined;
  // the samples' answer is not kept: its `samples` mark belongs to this run (28 sessions, quickly listed)
  if (timed || measuredOf.size > 0 || ctx.showingSamples) return (await render()).text;
  const key = JSON.stringify({ ...filter, paths: paths.map((p) => resolve(p)), prices: await ctx.pricesKey() });
  return ctx.answerOutput(`sessions-json:${key}`, render);
}

/**
 * What Claude Code's telemetry measured of the listed sessions that have some, beside what their transcripts'
 * timestamps give: `2 with telemetry: model 20.1 s, tools 11.3 s measured (inferred: model 18.2 s, tools 14.0 s)`.
 */
export function measuredLine(
  sessions: readonly SessionSummary[],
  measuredOf: ReadonlyMap<string, MeasuredSession>,
): string | undefined {
  let total: MeasuredTimeTotals | undefined;
  for (const s of sessions) {
    const m = measuredOf.get(s.id);
    if (m !== undefined) total = addMeasured(total, m, s.time);
  }
  if (total === undefined) return undefined;
  return (
    `${formatCount(total.sessions)} with agent telemetry: model ${formatDuration(total.modelMs)}, ` +
    `tools ${formatDuration(total.toolMs)} measured (inferred from timestamps: model ` +
    `${formatDuration(total.inferredModelMs)}, tools ${formatDuration(total.inferredToolMs)})`
  );
}
