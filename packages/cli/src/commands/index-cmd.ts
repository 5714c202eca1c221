import { resolve } from 'node:path';
import { defaultClaudeHome, isUnder, readCleanupPolicy } from '@agentdash/core/base';
import { flag } from '../args.js';
import { formatBytes, plural } from '../format.js';
import type { IndexJson } from '../output/json-types.js';
import { COMMON_HELP, type CommandSpec, PATHS_HELP, writeJson } from './common.js';

export const indexCommand: CommandSpec = {
  name: 'index',
  usage: 'agentdash index [PATH…] [--rebuild] [--json]',
  summary: 'bring the index up to date and report what was read',
  help: `Reads only what changed since the last run: new files, appended bytes (from the stored offset), truncated or
replaced files (from the start). Every other command does this first. New bytes are also kept, compressed, in the
index's archive, so a session whose files Claude Code deletes stays listed and readable (see "agentdash archive").

  --rebuild        drop everything derived from transcripts and read them all again (from disk, else from the
                   archive, which is kept); also how an older AgentDash takes over an index whose derived tables
                   a newer one wrote (not one whose archive or settings a newer one changed: that one it refuses)

${PATHS_HELP}

${COMMON_HELP}`,
  options: { rebuild: { type: 'boolean' } },
  async run(ctx, positionals) {
    const paths = await ctx.resolvePaths(positionals);
    const report = await ctx.refresh(paths, { wait: true });
    // The archive changes only with what is indexed: its size is a stored answer too.
    const size = await ctx.answer('archive-size', (index) => index.archiveSize());
    const archiving = await ctx.archiving();
    const claudeHome = defaultClaudeHome(ctx.io.env, ctx.io.homedir);
    const policy = readCleanupPolicy(claudeHome);
    if (ctx.json) {
      const out: IndexJson = {
        ...report,
        db: ctx.dbPath,
        archive: {
          enabled: archiving && !flag(ctx.values, 'no-archive'),
          files: size.files,
          bytes: size.raw,
          storedBytes: size.stored,
        },
        claudeCleanup: {
          settingsPath: policy.settingsPath,
          ...(policy.cleanupPeriodDays !== undefined ? { cleanupPeriodDays: policy.cleanupPeriodDays } : {}),
          effectiveDays: policy.effectiveDays,
          active: policy.active,
        },
      };
      writeJson(ctx, out);
      return;
    }
    ctx.io.stdout.write(
      `${plural(report.files, 'file')}, ${plural(report.sessions, 'session')}; parsed ${plural(report.filesParsed, 'file')} (${formatBytes(
        report.bytesParsed,
      )}, ${report.records} records)${report.filesRemoved > 0 ? `, removed ${report.filesRemoved}` : ''}${
        report.archivedFiles > 0 ? `, ${report.archivedFiles} gone from disk and kept from the archive` : ''
      }; ${report.issues} issue${report.issues === 1 ? '' : 's'}\nindex: ${ctx.dbPath}${
        size.raw > 0 ? ` (archive: ${formatBytes(size.raw)} of transcripts in ${formatBytes(size.stored)})` : ''
      }\n`,
    );
    // Once per database: Claude Code deletes old transcripts; say that AgentDash keeps them and how to stop it. Only
    // when this run read Claude Code's home or a folder in it: its cleanup deletes no other agent's transcripts, nor
    // a copy of a Claude home kept elsewhere.
    if (
      policy.active &&
      archiving &&
      paths.some((p) => isUnder(resolve(p), resolve(claudeHome))) &&
      (await ctx.firstTime('cleanup-notice'))
    ) {
      // a note, on stderr: the report above is the command's result
      ctx.io.stderr.write(
        `\nClaude Code deletes transcripts untouched for ${policy.effectiveDays} days (cleanupPeriodDays${
          policy.cleanupPeriodDays === undefined ? ' not set' : ''
        } in ${policy.settingsPath}). AgentDash keeps everything it has indexed, so those sessions stay here.
To keep them in Claude Code too, set "cleanupPeriodDays": 36500 in that file.\n`,
      );
    }
  },
};
