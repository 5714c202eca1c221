import { resolve } from 'node:path';
import type { MeasuredToolRun, MeasuredToolStats, SessionFilter } from '@agentdash/index';
import { str, wholeFilterOptions } from '../args.js';
import type { Context } from '../context.js';
import { formatCount, formatDuration, formatPercent, formatToolName, plural, realErrors } from '../format.js';
import type { StatsJson } from '../output/json-types.js';
import { type Cell, renderTable, styled } from '../table.js';
import { COMMON_HELP, type CommandSpec, FILTER_HELP, PATHS_HELP, sessionFilter, writeJson } from './common.js';
import { noteUnmatchedModel, noteUnmatchedProject, noteUnmatchedVersion } from './usage-model-note.js';

/** The share of calls that ended in a real error (expected ones left out), as the ERRORS column counts them. */
function realErrorRate(t: {
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
}): number {
  return t.calls === 0 ? 0 : realErrors(t) / t.calls;
}

/** The measured runs' figures, of the sessions the filter selects (the full index: its list and the statistics). */
async function measuredInScope(
  ctx: Context,
  runs: readonly MeasuredToolRun[],
  filter: SessionFilter,
): Promise<MeasuredToolStats | undefined> {
  const { measuredToolStats } = await import('@agentdash/index');
  const inScope = new Set((await ctx.openIndex()).listSessions(filter).map((s) => s.id));
  return measuredToolStats(runs, (id) => inScope.has(id));
}

export const statsCommand: CommandSpec = {
  name: 'stats',
  usage: 'agentdash stats [PATH…] [filters] [--tool NAME] [--json]',
  summary: 'per-tool calls, errors, error categories and durations',
  help: `Per tool: calls, errors, expected errors, error rate, error categories and duration p50 / p95 / max; totals.
A tool renamed over time is one row under its current name, with the older name in brackets ("Agent (Task)"). A call
is one unique tool call (copies made by resume or fork count once); it is an error when its result says so, and an
expected error (the user declining a call, a shell stopped after it ended, a call cancelled because another of its
batch failed) is counted apart from real ones: ERRORS and ERR% are real errors only, EXPECTED the others. CATEGORIES
sorts every error, expected ones included, by category, and says how many of them were expected ("user-rejected 9,
string-not-found 6 (of which 9 expected)"). Durations are call→result times. --since and --until count the calls
made in that period (as usage counts the responses), of the sessions the other filters choose. The sessions counted
are those the dashboard's list shows, not the empty and warm-up ones it hides. The same figures as the dashboard's
Analytics page. (--json: errors, errorRate and categories count expected errors too.) Where an agent's own telemetry
reached "agentdash serve", a last line gives the tool runs as the client measured them (--json: "measured").

${PATHS_HELP}

${FILTER_HELP}
  --tool NAME      only this tool (name as written, or canonical name)

${COMMON_HELP}`,
  options: { ...wholeFilterOptions, tool: { type: 'string' } },
  async run(ctx, positionals) {
    const options = sessionFilter(ctx.values, ctx.io.now());
    const tool = str(ctx.values, 'tool');
    const paths = await ctx.resolvePaths(positionals);
    const filter = { ...options, paths };
    await ctx.refresh(paths);
    const query = { ...filter, ...(tool !== undefined ? { tool } : {}) };
    // Figures of what is indexed only: kept, and given back while nothing is indexed since. (Not with --since or
    // --until: an age such as 7d is another question on every run, and its answers would only pile up.)
    const timed = str(ctx.values, 'since') !== undefined || str(ctx.values, 'until') !== undefined;
    const stats = timed
      ? (await ctx.openIndex()).stats(query)
      : await ctx.answer(`stats:${JSON.stringify({ ...query, paths: paths.map((p) => resolve(p)) })}`, (index) =>
          index.stats(query),
        );
    // The runs Claude Code's telemetry measured, of the sessions in scope (none unless `serve` received telemetry).
    await noteUnmatchedModel(ctx, filter, stats.sessions);
    await noteUnmatchedVersion(ctx, filter, stats.sessions);
    await noteUnmatchedProject(ctx, filter, stats.sessions);
    const runs = (await ctx.measuredToolRuns()).filter((r) => tool === undefined || r.tool === tool);
    const measured = runs.length === 0 ? undefined : await measuredInScope(ctx, runs, filter);
    if (ctx.json) {
      const out: StatsJson = measured === undefined ? stats : { ...stats, measured };
      writeJson(ctx, out);
      return;
    }
    const c = ctx.color;
    const groups = stats.byCanonical;
    const names = Object.keys(groups).sort((a, b) => (groups[b]?.calls ?? 0) - (groups[a]?.calls ?? 0));
    const errorCell = (errors: number, expected: number): Cell => {
      const real = realErrors({ errors, expectedErrors: expected });
      return real > 0 ? styled(formatCount(real), c.red) : '0';
    };
    const rows = names.map((name): Cell[] => {
      const t = groups[name];
      if (!t) return [];
      // The categories count every error; those of expected ones cannot be told apart here, so their number is said.
      const categories = `${Object.entries(t.categories)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}${t.expectedErrors > 0 ? ` (of which ${formatCount(t.expectedErrors)} expected)` : ''}`;
      return [
        formatToolName(name, t.names),
        formatCount(t.calls),
        errorCell(t.errors, t.expectedErrors),
        t.expectedErrors > 0 ? styled(formatCount(t.expectedErrors), c.dim) : '0',
        formatPercent(realErrorRate(t)),
        formatDuration(t.durationMs.p50),
        formatDuration(t.durationMs.p95),
        formatDuration(t.durationMs.max),
        categories,
      ];
    });
    rows.push([
      styled('TOTAL', c.bold),
      styled(formatCount(stats.calls), c.bold),
      styled(formatCount(realErrors(stats)), c.bold),
      styled(formatCount(stats.expectedErrors), c.bold),
      styled(formatPercent(realErrorRate(stats)), c.bold),
      '',
      '',
      '',
      '',
    ]);
    ctx.io.stdout.write(
      renderTable(
        // In a narrow terminal the tool names are cut, then P95, EXPECTED, P50 and MAX left out before the
        // categories are cut below 56 columns.
        [
          { header: 'TOOL', max: 48, min: 16 },
          { header: 'CALLS', align: 'right' },
          { header: 'ERRORS', align: 'right' },
          { header: 'EXPECTED', align: 'right', drop: 2 },
          { header: 'ERR%', align: 'right' },
          { header: 'P50', align: 'right', drop: 3 },
          { header: 'P95', align: 'right', drop: 1 },
          { header: 'MAX', align: 'right', drop: 4 },
          { header: 'CATEGORIES', min: 56 },
        ],
        rows,
        { width: ctx.width, headerStyle: c.bold },
      ),
    );
    ctx.io.stdout.write(
      `${plural(stats.sessions, 'session')}, ${plural(stats.calls, 'call')} (${formatCount(stats.paired)} with a result)\n`,
    );
    if (measured !== undefined) {
      const d = measured.durationMs;
      ctx.io.stdout.write(
        `measured by the agents' telemetry: ${plural(measured.calls, 'run')} in ${plural(measured.sessions, 'session')}, ` +
          `p50 ${formatDuration(d.p50)}, p95 ${formatDuration(d.p95)}, max ${formatDuration(d.max)} ` +
          `(the durations above are inferred from call→result timestamps)\n`,
      );
    }
  },
};
