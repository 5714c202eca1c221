/**
 * `--model TEXT` (usage, sessions, stats) that matches nothing says so, and which models the same paths and dates
 * hold: an empty table alone reads as "nothing was spent" or "no such sessions".
 * @module
 */
import { totalsOf } from '@agentdash/core/usage';
import type { UsageFilter } from '@agentdash/index';
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
