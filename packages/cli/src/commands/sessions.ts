import { redactIdentifiers } from '@agentdash/core/secrets';
import { filterOptions } from '../args.js';
import {
  formatCompact,
  formatCount,
  formatDateTime,
  formatDuration,
  formatErrors,
  plural,
  realErrors,
  shortModel,
  uniquePrefixes,
} from '../format.js';
import type { SessionJson, SessionsJson } from '../output/json-types.js';
import { type Cell, renderTable, styled } from '../table.js';
import { formatCost } from '../usage-report.js';
import { type CommandSpec, filteredHelp, filteredSessions, writeJson } from './common.js';

export const sessionsCommand: CommandSpec = {
  name: 'sessions',
  usage: 'agentdash sessions [PATH…] [filters] [--json]',
  summary: 'list sessions, newest first',
  help: filteredHelp(`One row per session: start, duration, messages, tool calls, errors, cost, client version(s), model(s), project
and title (custom title, AI title, summary or first prompt). --json adds usage, cost and where the time went.`),
  options: filterOptions,
  async run(ctx, positionals) {
    // Titles, project paths and branches are shown with their secrets redacted (docs/secrets.md).
    const sessions = (await filteredSessions(ctx, positionals)).map(redactIdentifiers);
    if (ctx.json) {
      const out: SessionsJson = { sessions: sessions as readonly SessionJson[] };
      writeJson(ctx, out);
      return;
    }
    if (sessions.length === 0) {
      ctx.io.stdout.write('No sessions.\n');
      return;
    }
    const c = ctx.color;
    // Expected errors apart, as the dashboard shows them: `0 +2 expected`, red only when some are real.
    const errorsCell = (s: { errors: number; expectedErrors: number }): Cell => {
      const text = formatErrors(s);
      return realErrors(s) > 0 ? styled(text, c.red) : s.expectedErrors > 0 ? styled(text, c.dim) : text;
    };
    // Each id as short as it can be and still name one session (Codex's time-ordered ids share their first 8).
    const prefixes = uniquePrefixes(sessions.map((s) => s.id));
    const rows = sessions.map((s): Cell[] => [
      // Two project folders with a session of the same id: the reference that tells them apart.
      ((id: string) => (s.isLive ? styled(id, c.green) : id))(s.ref === s.id ? (prefixes.get(s.id) ?? s.id) : s.ref),
      formatDateTime(s.startedAt),
      formatDuration(s.durationMs),
      formatCompact(s.messages),
      formatCount(s.toolCalls),
      errorsCell(s),
      formatCost(s.costUsd, s.unpricedModels),
      s.versions.join(','),
      s.models.map(shortModel).join(','),
      s.projectPath ?? s.projectDir,
      (s.title ?? '').replace(/\s+/g, ' '),
    ]);
    ctx.io.stdout.write(
      renderTable(
        [
          { header: 'SESSION' },
          { header: 'STARTED' },
          { header: 'DURATION', align: 'right' },
          { header: 'MSGS', align: 'right' },
          { header: 'CALLS', align: 'right' },
          { header: 'ERRORS', align: 'right' },
          { header: 'COST', align: 'right' },
          { header: 'VERSION', max: 24 },
          { header: 'MODEL', max: 32 },
          { header: 'PROJECT', max: 40 },
          { header: 'TITLE', max: 100 },
        ],
        rows,
        { width: ctx.io.stdout.isTTY ? ctx.io.stdout.columns : undefined, headerStyle: c.bold },
      ),
    );
    ctx.io.stdout.write(`${plural(sessions.length, 'session')}\n`);
  },
};
