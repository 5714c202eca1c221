import { formatBytes } from '../format.js';
import type { IndexJson } from '../output/json-types.js';
import { COMMON_HELP, type CommandSpec, PATHS_HELP, writeJson } from './common.js';

export const indexCommand: CommandSpec = {
  name: 'index',
  usage: 'agentdash index [PATH…] [--json]',
  summary: 'bring the index up to date and report what was read',
  help: `Reads only what changed since the last run: new files, appended bytes (from the stored offset), truncated or
replaced files (from the start); drops deleted files. Every other command does this first.

${PATHS_HELP}

${COMMON_HELP}`,
  options: {},
  async run(ctx, positionals) {
    const paths = ctx.resolvePaths(positionals);
    const report = await ctx.refresh(paths);
    if (ctx.json) {
      const out: IndexJson = { ...report, db: ctx.dbPath };
      writeJson(ctx, out);
      return;
    }
    ctx.io.stdout.write(
      `${report.files} files, ${report.sessions} sessions; parsed ${report.filesParsed} files (${formatBytes(
        report.bytesParsed,
      )}, ${report.records} records)${report.filesRemoved > 0 ? `, removed ${report.filesRemoved}` : ''}; ${
        report.issues
      } issue${report.issues === 1 ? '' : 's'}\nindex: ${ctx.dbPath}\n`,
    );
  },
};
