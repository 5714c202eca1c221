import { existsSync, readlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { modelLabel, unrecordedNotes } from '@agentdash/core/present';
import { redactIdentifiers } from '@agentdash/core/secrets';
import { groupUsage, periodKey, totalsOf, type UsageGroup, type UsagePeriod } from '@agentdash/core/usage';
import type { accountBlocks, UsageFilter, UsageResponse } from '@agentdash/index';
import { agentArg, agentOption, flag, type Parsed, str, timeWindow } from '../args.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { formatClock, formatDateTime, terminalText } from '../format.js';
import type {
  UsageBlocksJson,
  UsageDailyJson,
  UsageMonthlyJson,
  UsageProjectJson,
  UsageReportJson,
  UsageSessionJson,
  UsageWeeklyJson,
} from '../output/json-types.js';
import { renderTable } from '../table.js';
import {
  entryJson,
  formatCost,
  formatRemaining,
  groupRows,
  pricesJson,
  totalsJson,
  usageTable,
} from '../usage-report.js';
import { wrapToWidth } from '../wrap.js';
import { AGENT_HELP, COMMON_HELP, type CommandSpec, PATHS_HELP, PROJECT_HELP, writeJson } from './common.js';
import { refsNamingOne } from './session-refs.js';
import { noteUnmatchedModel, noteUnmatchedProject } from './usage-model-note.js';

const reports = ['daily', 'weekly', 'monthly', 'session', 'project', 'blocks'] as const;
type Report = (typeof reports)[number];

const periodOf = { daily: 'day', weekly: 'week', monthly: 'month' } as const satisfies Record<string, UsagePeriod>;
const periodKeyName = { daily: 'date', weekly: 'week', monthly: 'month' } as const;

// The day parser of --since and --until (statusline takes today's start from it too).
export { localDayMs } from '../args.js';

/**
 * `accountBlocks`, an agent without blocks said as a bad argument. The index's module is loaded here only (as stats
 * loads it): the warm commands' start loads no more than the light connection.
 */
async function blocksOf(...args: Parameters<typeof accountBlocks>): Promise<ReturnType<typeof accountBlocks>> {
  const { accountBlocks, NoBlocksError } = await import('@agentdash/index');
  try {
    return accountBlocks(...args);
  } catch (error) {
    if (error instanceof NoBlocksError) throw new UsageError(`usage blocks: ${error.message}`);
    throw error;
  }
}

/** The usage filter of the command's options, for any paths (read before them: a bad option is said first). */
function usageFilter(values: Parsed['values'], now: number): Omit<UsageFilter, 'paths'> {
  const window = timeWindow(values, now);
  const project = str(values, 'project');
  const model = str(values, 'model');
  return {
    ...agentArg(values),
    ...window,
    ...(project !== undefined ? { project } : {}),
    ...(model !== undefined ? { model } : {}),
  };
}

/**
 * Names the models without a price, on stderr, in one note (after the table: the table is what was asked for), and
 * those some of whose responses recorded no input, in another.
 */
function warnUnpriced(ctx: Context, totals: UsageGroup): void {
  const models = totals.unpricedModels.map((model) => {
    const responses = totals.models[model]?.responses ?? 0;
    return `${modelLabel(model)} (${responses} response${responses === 1 ? '' : 's'})`;
  });
  // A note as its messages start: in lower case.
  for (const { text } of unrecordedNotes(totals)) ctx.note(`${text.charAt(0).toLowerCase()}${text.slice(1)}`);
  if (models.length === 0) return;
  const [one] = models;
  ctx.note(
    models.length === 1
      ? `no price for ${one}: its cost is unknown and left out of the sums; --prices FILE adds prices`
      : `no price for ${models.length} models, ${models.join(', ')}: their cost is unknown and left out of the sums; --prices FILE adds prices`,
  );
}

/** What every report's JSON carries besides its rows: totals, the models without a price, the prices used. */
function commonOf(
  ctx: Context,
  group: UsageGroup,
): Omit<UsageReportJson, 'totals'> & { totals: UsageReportJson['totals'] } {
  return {
    totals: totalsJson(group),
    unpricedModels: group.unpricedModels,
    ...(group.inputUnrecordedModels === undefined ? {} : { inputUnrecordedModels: group.inputUnrecordedModels }),
    ...(group.outputUnrecordedModels === undefined ? {} : { outputUnrecordedModels: group.outputUnrecordedModels }),
    prices: pricesJson(ctx.prices),
  };
}

function write(ctx: Context, header: string, rows: string[][], totals: UsageGroup): void {
  const c = ctx.color;
  const table = usageTable(
    [...rows, ['Total', ...(groupRows('', totals, false)[0]?.slice(1) ?? [])]],
    flag(ctx.values, 'breakdown'),
  );
  ctx.io.stdout.write(
    // The first column (a date, a block's start, a session, a project's path) is cut down to 12 columns, a path by
    // its start, before others are left out.
    renderTable(
      [{ header, min: 12, ...(header === 'PROJECT' ? { cut: 'start' } : {}) }, ...table.columns],
      table.rows,
      {
        width: ctx.width,
        headerStyle: c.bold,
      },
    ),
  );
  ctx.io.stdout.write(
    `${c.dim(wrapToWidth(terminalText(`prices: ${ctx.prices.source}, ${ctx.prices.date}`), ctx.width))}\n`,
  );
  warnUnpriced(ctx, totals);
}

/** The reports made of groups only (no session summaries, no clock): their groups can be stored answers. */
type GroupedReport = 'daily' | 'weekly' | 'monthly' | 'project';

/** A report's groups, in the order shown, and its totals: plain JSON, as a stored answer keeps it. */
interface GroupedUsage {
  readonly groups: readonly (readonly [string, UsageGroup])[];
  readonly totals: UsageGroup;
  /** A period report's responses with no time (a record without a timestamp): in the totals, in no period. */
  readonly undated?: UsageGroup;
}

function groupsOf(responses: readonly UsageResponse[], kind: GroupedReport): GroupedUsage {
  const totals = totalsOf(responses);
  if (kind === 'project') {
    const groups = [...groupUsage(responses, (r) => redactIdentifiers(r.context.project))].sort(
      (a, b) => (b[1].costUsd ?? -1) - (a[1].costUsd ?? -1) || b[1].responses - a[1].responses,
    );
    return { groups, totals };
  }
  const period = periodOf[kind];
  const groups = [
    ...groupUsage(responses, (r) => (r.timestampMs === undefined ? undefined : periodKey(r.timestampMs, period))),
  ];
  groups.sort((a, b) => a[0].localeCompare(b[0]));
  const undated = responses.filter((r) => r.timestampMs === undefined);
  return { groups, totals, ...(undated.length > 0 ? { undated: totalsOf(undated) } : {}) };
}

/** A zone name as TZ takes it (`Europe/Paris`, `UTC`, `Etc/GMT+5`): not a file (`:/etc/localtime`), not empty. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * What names the local time zone in a stored answer's key: two keys alike mean the same zone. `TZ` when it is a zone
 * name, else the zone file `/etc/localtime` links to (where the system's default zone is read from), else the name
 * the Intl API resolves: creating an Intl.DateTimeFormat loads ICU's locale and zone data, which costs a warm command
 * more than the rest of its answer.
 */
export function localZoneKey(tz: string | undefined, link: () => string | undefined = localtimeLink): string {
  if (tz !== undefined && ZONE_NAME.test(tz)) return `TZ=${tz}`;
  const target = tz === undefined ? link() : undefined;
  return target !== undefined ? `localtime=${target}` : Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function localtimeLink(): string | undefined {
  try {
    return readlinkSync('/etc/localtime');
  } catch {
    return undefined; // not a link (a copied file), or no such file (Windows)
  }
}

/**
 * The groups of a report. Without --since and --until they depend only on what is indexed, the time zone (days are
 * local) and the prices: they are kept as a stored answer under those, and given back while nothing is indexed
 * since (grouping every response of a large home is most of the command's time).
 */
async function groupedUsage(ctx: Context, kind: GroupedReport, filter: UsageFilter): Promise<GroupedUsage> {
  if (filter.since !== undefined || filter.until !== undefined) {
    return groupsOf((await ctx.openIndex()).usageResponses(filter), kind);
  }
  const prices = await ctx.pricesKey();
  const key = JSON.stringify({
    kind,
    filter: { ...filter, paths: (filter.paths ?? []).map((p) => resolve(p)) },
    timeZone: localZoneKey(process.env.TZ),
    prices,
  });
  return ctx.answer(`usage:${key}`, (index) => groupsOf(index.usageResponses(filter), kind));
}

export const usageCommand: CommandSpec = {
  name: 'usage',
  usage:
    'agentdash usage [daily|weekly|monthly|session|project|blocks] [PATH…] [--breakdown] [--since D] [--until D] [--project P] [--model M] [--json]',
  summary: 'tokens and cost per day, week, month, session, project or 5-hour billing block',
  help: `Each API response counted once (message id + request id, the largest count of its block records), priced
with the built-in table (or --prices FILE). A model without a price shows its tokens and cost "unknown", and is
named in a warning. Dates are in the local time zone (TZ is honoured).

Reports:
  daily (default), weekly (ISO weeks, keyed by Monday), monthly
  session          per session, subagents shown apart
  project          per project (the sessions' project path), most expensive first
  blocks           Claude Code's 5-hour billing blocks (from the hour of their first response); the active one
                   with time left, burn rate and projected cost. Made of all its responses in the paths: --project
                   and --model count their part of each, --since/--until pick the blocks they overlap, whole

Options:
  --breakdown      one row per model under each period, session or block
  --since D        from day D (2026-01-31 or 20260131, local) or a time or an age (7d, 12h)
  --until D        through day D
${PROJECT_HELP}
${AGENT_HELP}
  --model TEXT     responses of models whose id contains TEXT, any case (none: the models here named on stderr)

${PATHS_HELP}

${COMMON_HELP}`,
  options: {
    ...agentOption,
    breakdown: { type: 'boolean' },
    since: { type: 'string' },
    until: { type: 'string' },
    project: { type: 'string' },
    model: { type: 'string' },
  },
  async run(ctx, positionals) {
    const first = positionals[0];
    const kind: Report = reports.includes(first as Report) ? (first as Report) : 'daily';
    const rest = reports.includes(first as Report) ? positionals.slice(1) : positionals;
    // a word that names no report is a mistake, unless it names a folder here (`usage emptyc`: a PATH)
    if (first !== undefined && !reports.includes(first as Report) && /^[a-z]+$/.test(first) && !existsSync(first)) {
      throw new UsageError(`unknown usage report "${first}"; one of ${reports.join(', ')}`);
    }
    const options = usageFilter(ctx.values, ctx.io.now());
    const paths = await ctx.resolvePaths(rest);
    const filter: UsageFilter = { ...options, paths };
    await ctx.refresh(paths);
    const breakdown = flag(ctx.values, 'breakdown');
    if (kind === 'daily' || kind === 'weekly' || kind === 'monthly' || kind === 'project') {
      const { groups, totals, undated } = await groupedUsage(ctx, kind, filter);
      await noteUnmatchedModel(ctx, filter, totals.responses);
      await noteUnmatchedProject(ctx, filter, totals.responses);
      if (ctx.json) {
        warnUnpriced(ctx, totals);
        const common = commonOf(ctx, totals);
        const out: UsageProjectJson | UsageDailyJson | UsageWeeklyJson | UsageMonthlyJson =
          kind === 'project'
            ? { projects: groups.map(([project, u]) => ({ project, ...entryJson(u) })), ...common }
            : ({
                [kind]: groups.map(([key, u]) => ({ [periodKeyName[kind]]: key, ...entryJson(u) })),
                ...(undated !== undefined ? { undated: entryJson(undated) } : {}),
                ...common,
              } as unknown as UsageDailyJson | UsageWeeklyJson | UsageMonthlyJson);
        writeJson(ctx, out);
        return;
      }
      if (groups.length === 0 && undated === undefined) {
        ctx.io.stdout.write('No usage.\n');
        return;
      }
      const header = { daily: 'DATE', weekly: 'WEEK', monthly: 'MONTH', project: 'PROJECT' }[kind];
      write(
        ctx,
        header,
        // the responses no period holds, so that the rows add up to the total (and its "+ ?" is a row's)
        [
          ...groups.flatMap(([key, u]) => groupRows(key, u, breakdown)),
          ...(undated === undefined ? [] : groupRows('(no time)', undated, breakdown)),
        ],
        totals,
      );
      return;
    }
    const index = await ctx.openIndex();
    const account = kind === 'blocks' ? await blocksOf(index, filter, ctx.io.now()) : undefined;
    const responses = account?.counted ?? index.usageResponses(filter);
    const totals = totalsOf(responses);
    await noteUnmatchedModel(ctx, filter, totals.responses);
    await noteUnmatchedProject(ctx, filter, totals.responses);
    if (ctx.json) warnUnpriced(ctx, totals);
    const common = commonOf(ctx, totals);
    switch (kind) {
      case 'session': {
        const groups = [...groupUsage(responses, (r) => r.context.sessionKey)];
        groups.sort((a, b) => (a[1].lastMs ?? 0) - (b[1].lastMs ?? 0));
        const subagents = groupUsage(
          responses.filter((r) => r.context.agentId !== undefined),
          (r) => r.context.sessionKey,
        );
        const summaries = new Map(groups.map(([id]) => [id, redactIdentifiers(index.getSession(id))]));
        if (ctx.json) {
          const out: UsageSessionJson = {
            sessions: groups.map(([id, u]) => {
              const s = summaries.get(id);
              const sub = subagents.get(id);
              return {
                sessionId: s?.id ?? id,
                ...(s !== undefined && s.ref !== s.id ? { ref: s.ref } : {}),
                project: s?.projectPath ?? s?.projectDir ?? '',
                ...(s?.title !== undefined ? { title: s.title } : {}),
                ...(u.firstMs !== null ? { firstAt: new Date(u.firstMs).toISOString() } : {}),
                ...(u.lastMs !== null ? { lastAt: new Date(u.lastMs).toISOString() } : {}),
                ...entryJson(u),
                subagents: sub
                  ? totalsJson(sub)
                  : {
                      responses: 0,
                      inputTokens: 0,
                      outputTokens: 0,
                      cacheCreationInputTokens: 0,
                      cacheReadInputTokens: 0,
                      reasoningOutputTokens: 0,
                      costUsd: u.costUsd === null ? null : 0,
                    },
              };
            }),
            ...common,
          };
          writeJson(ctx, out);
          return;
        }
        if (groups.length === 0) {
          ctx.io.stdout.write('No usage.\n');
          return;
        }
        // each reference as `sessions` shows it: as short as it can be and still name one session (what `show` takes)
        const short = refsNamingOne(
          index,
          groups.map(([id]) => summaries.get(id)?.ref ?? id),
        );
        const rows = groups.flatMap(([id, u]) => {
          const s = summaries.get(id);
          const ref = s?.ref ?? id;
          const label = `${short.get(ref) ?? ref} ${(s?.projectPath ?? s?.projectDir ?? '').split(/[\\/]/).pop() ?? ''}`;
          const out = groupRows(label, u, breakdown);
          const sub = subagents.get(id);
          if (sub) out.push(...groupRows('', sub, false).map((r) => ['', `└ subagents`, ...r.slice(2)]));
          return out;
        });
        write(ctx, 'SESSION', rows, totals);
        return;
      }
      case 'blocks': {
        const blocks = account?.blocks ?? [];
        if (ctx.json) {
          const out: UsageBlocksJson = {
            blocks: blocks.map((b) => ({
              start: new Date(b.startMs).toISOString(),
              end: new Date(b.endMs).toISOString(),
              lastAt: new Date(b.lastMs).toISOString(),
              isActive: b.isActive,
              remainingMs: b.remainingMs,
              ...entryJson(b.usage),
              tokens: totalsJson(b.usage),
              ...(b.burnRate ? { burnRate: b.burnRate } : {}),
              ...(b.projectedCostUsd !== undefined ? { projectedCostUsd: b.projectedCostUsd } : {}),
            })),
            ...common,
          };
          writeJson(ctx, out);
          return;
        }
        if (blocks.length === 0) {
          ctx.io.stdout.write('No usage.\n');
          return;
        }
        const rows = blocks.flatMap((b) => {
          const label = `${formatDateTime(new Date(b.startMs).toISOString())}${b.isActive ? ` (${formatRemaining(b.remainingMs)} left)` : ''}`;
          const out = groupRows(label, b.usage, breakdown);
          if (b.isActive && b.projectedCostUsd !== undefined) {
            out.push([
              '',
              `projected ${formatCost(b.projectedCostUsd ?? null)} by ${formatClock(new Date(b.endMs).toISOString()).slice(0, 5)}`,
              '',
              '',
              '',
              '',
              '',
              '',
            ]);
          }
          return out;
        });
        write(ctx, 'BLOCK', rows, totals);
        return;
      }
      default:
        kind satisfies never;
    }
  },
};
