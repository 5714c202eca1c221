/**
 * The references a listing prints for its sessions (`sessions`, `search`, `usage session`): each as short as it can
 * be and still name one session of the whole index, which `show` resolves it against, not only of the rows listed
 * (a filtered list's `01a205f2` matched 8 sessions).
 * @module
 */
import type { AgentIndex } from '@agentdash/index';
import { shortRefs } from '../format.js';

export function refsNamingOne(
  index: Pick<AgentIndex, 'sessionIds'>,
  refs: readonly string[],
): ReadonlyMap<string, string> {
  // a listed `<id>@<folder>` is told from its id's other folders among the listed; the other ids as they are
  const listed = new Set(refs.map((ref) => ref.split('@')[0]));
  const others = index.sessionIds().filter((id) => !listed.has(id));
  const short = shortRefs([...refs, ...others]);
  return new Map(refs.map((ref) => [ref, short.get(ref) ?? ref]));
}
