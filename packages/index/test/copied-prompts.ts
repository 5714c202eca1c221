/**
 * The prompts of a loaded session that a resume or fork copied from the sessions it holds copies of, found apart from
 * the index's rule (`SessionUsageUpdater.settle`): the prompt events of those sessions, loaded, by uuid.
 */
import type { Session } from '@agentdash/core';
import type { AgentIndex } from '../src/index.js';

/** How many of `session`'s prompt events an earlier session it copied from (`sessionCopies`) holds too. */
export async function copiedPromptsOf(index: AgentIndex, ref: string, session: Session): Promise<number> {
  const owners = index.sessionCopies(ref);
  if (owners.length === 0) return 0;
  const theirs = new Set<string>();
  for (const owner of owners) {
    const loaded = await index.loadSession(owner.ref);
    for (const e of loaded.events) if (e.kind === 'prompt') theirs.add(e.uuid);
  }
  return new Set(session.events.flatMap((e) => (e.kind === 'prompt' && theirs.has(e.uuid) ? [e.uuid] : []))).size;
}
