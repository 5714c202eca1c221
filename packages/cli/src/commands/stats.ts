import { filterOptions, str } from '../args.js';
import { formatDuration, formatPercent } from '../format.js';
import type { StatsJson } from '../output/json-types.js';
import { renderTable } from '../table.js';
import { COMMON_HELP, type CommandSpec, FILTER_HELP, PATHS_HELP, sessionFilter, writeJson } from './common.js';

export const statsCommand: CommandSpec = {
  name: 'stats',
  usage: 'agentdash stats [PATH…] [filters] [--tool NAME] [--json]',
  summary: 'per-tool calls, errors, error categories and durations',
  help: `Per tool (name as written in the transcript): calls, errors, expected errors, error rate, error categories and
duration p50 / p95 / max; totals. A call is one unique tool_use id (copies made by resume or fork count once); it is
an error when its result has is_error: true. Durations are call→result times.

${PATHS_HELP}

${FILTER_HELP}
  --tool NAME      only this tool (name as written, or canonical name)

${COMMON_HELP}`,
  options: { ...filterOptions, tool: { type: 'string' } },
  async run(ctx, positionals) {
    const paths = await ctx.resolvePaths(positionals);
    const filter = sessionFilter(ctx.values, ctx.io.now(), paths);
    const tool = str(ctx.values, 'tool');
    await ctx.refresh(paths);
    const stats = ctx.openIndex().stats({ ...filter, ...(tool !== undefined ? { tool } : {}) });
    if (ctx.json) {
      const out: StatsJson = stats;
      writeJson(ctx, out);
      return;
    }
    const c = ctx.color;
    const names = Object.keys(stats.tools).sort((a, b) => (stats.tools[b]?.calls ?? 0) - (stats.tools[a]?.calls ?? 0));
    const rows = names.map((name) => {
      const t = stats.tools[name];
      if (!t) return [];
      const categories = Object.entries(t.categories)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      return [
        name,
        String(t.calls),
        t.errors > 0 ? c.red(String(t.errors)) : '0',
        String(t.expectedErrors),
        formatPercent(t.errorRate),
        formatDuration(t.durationMs.p50 ?? undefined),
        formatDuration(t.durationMs.p95 ?? undefined),
        formatDuration(t.durationMs.max ?? undefined),
        categories,
      ];
    });
    rows.push([
      c.bold('TOTAL'),
      c.bold(String(stats.calls)),
      c.bold(String(stats.errors)),
      c.bold(String(stats.expectedErrors)),
      c.bold(formatPercent(stats.calls === 0 ? 0 : stats.errors / stats.calls)),
      '',
      '',
      '',
      '',
    ]);
    ctx.io.stdout.write(
      renderTable(
        [
          { header: 'TOOL', max: 48 },
          { header: 'CALLS', align: 'right' },
          { header: 'ERRORS', align: 'right' },
          { header: 'EXPECTED', align: 'right' },
          { header: 'ERR%', align: 'right' },
          { header: 'P50', align: 'right' },
          { header: 'P95', align: 'right' },
          { header: 'MAX', align: 'right' },
          { header: 'CATEGORIES' },
        ],
        rows,
        { width: ctx.io.stdout.isTTY ? ctx.io.stdout.columns : undefined, headerStyle: c.bold },
      ),
    );
    ctx.io.stdout.write(
      `${stats.sessions} session${stats.sessions === 1 ? '' : 's'}, ${stats.calls} calls (${stats.paired} with a result)\n`,
    );
  },
};
