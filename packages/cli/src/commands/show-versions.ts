/**
 * `show --versions` and `show --partial`: a session whose transcript lost records on disk shows its last complete
 * version; these list the newer partial copies kept beside it and show the session as they make it (docs/archive.md).
 */
import type { Session } from '@agentdash/core';
import type { HeldFile, SessionVersions } from '@agentdash/index';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { formatBytes, plural, terminalText } from '../format.js';
import type { Colors } from '../io.js';
import { writeJson } from './common.js';

/**
 * A line saying the session is shown from the index's archive, its transcripts gone from disk (the agent's cleanup,
 * a deleted folder); none when a file of it is still there.
 */
export function archivedLines(summary: { readonly archived: boolean } | undefined, c: Colors): string[] {
  if (summary?.archived !== true) return [];
  return [`${c.yellow('archived')} its transcripts are gone from disk: shown from the index's archive`];
}

/** One line per held file: the complete version shown, the partial copy kept, and why. */
export function heldLines(held: readonly HeldFile[], ref: string, c: Colors): string[] {
  if (held.length === 0) return [];
  const lines = held.map(
    (h) =>
      `${c.yellow('partial')}  ${terminalText(h.path)}: a newer partial copy is kept (${formatBytes(h.partial.bytes)}, ${plural(
        h.partial.records,
        'record',
      )}; shown: ${formatBytes(h.complete.bytes)}, ${plural(h.complete.records, 'record')}): ${terminalText(h.partial.reason)}`,
  );
  lines.push(`${c.dim('         agentdash show')} ${terminalText(ref)} ${c.dim('--partial shows it')}`);
  return lines;
}

/** `show SESSION --versions`: the held files and their partial copies (none: says every file is shown whole). */
export function printVersions(ctx: Context, versions: SessionVersions): void {
  if (ctx.json) {
    writeJson(ctx, versions);
    return;
  }
  const out = ctx.io.stdout;
  if (versions.held.length === 0) {
    out.write(`every file of session ${terminalText(versions.sessionId)} is shown as it is: no partial copy kept\n`);
    return;
  }
  for (const line of heldLines(versions.held, versions.sessionId, ctx.color)) out.write(`${line}\n`);
}

/** `show SESSION --partial`: the session as its newer partial copies make it; a usage error when it has none. */
export async function loadPartial(ctx: Context, id: string): Promise<Session> {
  const session = await (await ctx.openIndex()).loadPartialSession(id);
  if (session === undefined) {
    throw new UsageError(`session ${id} has no newer partial copy: every file of it is shown as it is`);
  }
  return session;
}
