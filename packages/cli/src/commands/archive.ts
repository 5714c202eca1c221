import { UsageError } from '../errors.js';
import { formatBytes, terminalText } from '../format.js';
import type { ArchiveForgetJson, ArchiveJson } from '../output/json-types.js';
import { COMMON_HELP, type CommandSpec, PATHS_HELP, writeJson } from './common.js';
import { resolveSession } from './resolve-session.js';

/** What `archive` does (`status` when none is named). */
const actions: readonly string[] = ['status', 'on', 'off', 'forget'];

export const archiveCommand: CommandSpec = {
  name: 'archive',
  usage: 'agentdash archive [status [PATH…] | on | off | forget SESSION [PATH…]] [--json]',
  summary: 'the copy of transcripts kept in the index: status, turn on or off, forget a session',
  help: `Claude Code deletes transcripts older than cleanupPeriodDays (default 30) from ~/.claude/projects. AgentDash
keeps a compressed copy of every transcript it indexes (about a tenth of their size), so a deleted session stays
listed (marked archived) and fully usable: show, export, the dashboard's timeline, search and stats.

  status [PATH…]    whether archiving is on, and what the whole archive holds (default); refreshes PATH first
  on | off          store the setting in the index; "off" keeps what is archived already (--no-archive: one run)
  forget SESSION    delete a session's archived bytes; a session whose files are gone leaves the index

${PATHS_HELP}

${COMMON_HELP}`,
  options: {},
  async run(ctx, positionals) {
    const [action = 'status', ...rest] = positionals;
    if (!actions.includes(action)) throw new UsageError(`unknown archive action "${action}" (${actions.join(', ')})`);
    // Status counts what a refresh now would archive, as every other command answers after a refresh: without it, a
    // transcript written since the last command would be missing from the count.
    if (action === 'status') await ctx.refresh(await ctx.resolvePaths(rest));
    const index = await ctx.openIndex();
    if (action === 'forget') {
      const [session, ...paths] = rest;
      const id = await resolveSession(ctx, session, paths);
      const report = await index.forgetSession(id);
      const out: ArchiveForgetJson = { session: id, ...report, stillIndexed: index.getSession(id) !== undefined };
      if (ctx.json) writeJson(ctx, out);
      else {
        ctx.io.stdout.write(
          `forgot ${formatBytes(out.bytes)} of ${out.files} file${out.files === 1 ? '' : 's'} of session ${terminalText(id)}${
            out.stillIndexed
              ? ' (its files are still on disk: still listed, and archived again by the next refresh unless archiving is off)'
              : '; it is no longer listed'
          }\n`,
        );
      }
      return;
    }
    if (action === 'on' || action === 'off') index.setArchiving(action === 'on');
    const size = index.archiveSize();
    const out: ArchiveJson = {
      enabled: index.archiving(),
      files: size.files,
      bytes: size.raw,
      storedBytes: size.stored,
      versions: size.versions,
      db: ctx.dbPath,
    };
    if (ctx.json) {
      writeJson(ctx, out);
      return;
    }
    ctx.io.stdout.write(
      `archiving ${out.enabled ? 'on' : 'off'}: ${out.files} file${out.files === 1 ? '' : 's'}, ${formatBytes(out.bytes)} of transcripts in ${formatBytes(
        out.storedBytes,
      )}${out.versions > 0 ? `, ${out.versions} version${out.versions === 1 ? '' : 's'} kept beside files that lost records (\`agentdash index --verbose\` lists them)` : ''}\nindex: ${out.db}\n`,
    );
  },
};
