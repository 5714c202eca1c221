/**
 * The session header's usage per model, from the index's summary: the responses the session owns (a resumed
 * session's copies count for the session they come from, as in its row), models in the order the session first used
 * them, as a loaded session lists them. Both header paths (from the index, and from a loaded session) give this.
 */
import { usageTotalsOf } from '@agentdash/core';
import type { SessionSummary } from '@agentdash/index';
import type { SessionDetail } from './api-types.js';

export function headerUsageByModel(
  found: Pick<SessionSummary, 'models' | 'usageByModel'>,
): SessionDetail['usageByModel'] {
  const rank = (model: string) => {
    const at = found.models.indexOf(model);
    return at === -1 ? found.models.length : at;
  };
  return Object.fromEntries(
    Object.entries(found.usageByModel)
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([model, u]) => [model, usageTotalsOf(u)]),
  );
}
