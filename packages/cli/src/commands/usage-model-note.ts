/**
 * `--model TEXT` (usage, sessions, stats), `--version V` (sessions, stats) and `--project TEXT` (usage, sessions,
 * stats, secrets) that match nothing say so, and which models, versions or projects the same paths and dates hold: an
 * empty table alone reads as "nothing was spent" or "no such sessions".
 * @module
 */
import { basename } from 'node:path';
import { redactIdentifiers } from '@agentdash/core/secrets';
import { totalsOf } from '@agentdash/core/usage';
import type { SessionFilter, UsageFilter } from '@agentdash/index';
import type { Context } from '../context.js';

/** At most this many models named in the note (the most used first). */
const NAMED = 6;

/**
 * The note, on stderr, when `filter.model` left nothing (`found`: the responses, sessions, … kept) of what the rest
 * of the filter keeps (its paths, agent, project and dates; the models of their responses).
 */
export async function noteUnmatchedModel(ctx: Context, filter: UsageFilter, found: number): Promise<void> {
  if (filter.model === undefined || found > 0) return;
  const { agent, paths, project, since, until } = filter;
  const rest: UsageFilter = { agent, paths, project, since, until };
  const index = await ctx.openIndex();
  const models = Object.entries(totalsOf(index.usageResponses(rest)).models)
    .filter(([id]) => id !== '')
    .sort((a, b) => b[1].responses - a[1].responses || a[0].localeCompare(b[0]));
  if (models.length === 0) return;
  const named = models
    .slice(0, NAMED)
    .map(([id, u]) => `${id} (${u.responses} response${u.responses === 1 ? '' : 's'})`);
  const more = models.length > NAMED ? ` and ${models.length - NAMED} more` : '';
  ctx.note(`no model id here contains "${filter.model}"; the responses here are of ${named.join(', ')}${more}`);
}

/**
 * The note, on stderr, when `filter.version` left no session (`found`) of those the rest of the filter keeps: the
 * client versions they were written by (an exact version is asked for: `--version 2.1` finds no 2.1.330).
 */
export async function noteUnmatchedVersion(ctx: Context, filter: SessionFilter, found: number): Promise<void> {
  if (filter.version === undefined || found > 0) return;
  const { version: _version, limit: _limit, ...rest } = filter;
  const counts = new Map<string, number>();
  for (const s of (await ctx.openIndex()).listSessions(rest)) {
    for (const v of s.versions) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  if (counts.size === 0) return;
  ctx.note(
    `no session here was written by version ${filter.version} (exactly); the versions here are ${sessionsOf(counts)}`,
  );
}

/**
 * The note, on stderr, when `filter.project` left nothing (`found`) of what the rest of the filter keeps: the
 * projects of those sessions, by their path (their folder's name when the path is unknown), the most sessions first.
 */
export async function noteUnmatchedProject(
  ctx: Context,
  filter: SessionFilter | UsageFilter,
  found: number,
): Promise<void> {
  if (filter.project === undefined || found > 0) return;
  const { project, ...rest } = filter;
  const { limit: _limit, ...whole } = rest as SessionFilter;
  const index = await ctx.openIndex();
  // `found` counts what the command counts (responses for usage): a project of sessions that recorded none is matched
  if (index.listSessions({ ...whole, project, limit: 1 }).length > 0) return;
  const counts = new Map<string, number>();
  for (const s of index.listSessions(whole)) {
    // with its secrets redacted, as the sessions list shows it (docs/secrets.md)
    const name = redactIdentifiers(s.projectPath ?? basename(s.projectDir));
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  if (counts.size === 0) return;
  ctx.note(
    `no project path or folder name here contains "${filter.project}"; the projects here are ${sessionsOf(counts)}`,
  );
}

/** The most held first, `NAMED` at most, each with its sessions: `2.1.3 (4 sessions), 2.0.1 (1 session) and 3 more`. */
function sessionsOf(counts: ReadonlyMap<string, number>): string {
  const named = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, NAMED)
    .map(([name, n]) => `${name} (${n} session${n === 1 ? '' : 's'})`);
  return `${named.join(', ')}${counts.size > NAMED ? ` and ${counts.size - NAMED} more` : ''}`;
}
