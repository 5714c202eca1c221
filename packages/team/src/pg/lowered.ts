/**
 * The sessions a push stores at a lower tier than the server held them: what the higher tier held (transcripts,
 * titles) is gone there once they are stored, by the person's choice, and the push says so (`SessionsResponse.lowered`).
 */
import { type PushSession, type ShareTier, shareTiers } from '../contract.js';
import type { Sql } from './db.js';

export type Lowered = { uid: string; from: ShareTier };

/** The tiers held now of the sessions sent below the full tier (a full-tier one can lower nothing), by uid. */
export async function heldTiers(
  sql: Sql,
  sessions: readonly PushSession[],
  personId: number,
): Promise<Map<string, ShareTier>> {
  const below = sessions.flatMap((s) => (s.tier === 'full' ? [] : [s.uid]));
  if (below.length === 0) return new Map();
  const rows = await sql<{ uid: string; tier: ShareTier }[]>`select uid, tier from sessions
    where person_id = ${personId} and uid = any(${below}::text[])`;
  return new Map(rows.map((r) => [r.uid, r.tier]));
}

/** Of the sessions stored (`changed`), those sent at a lower tier than `held` says they were at. */
export function loweredOf(
  changed: readonly string[],
  held: ReadonlyMap<string, ShareTier>,
  sessions: readonly PushSession[],
): Lowered[] {
  const rank = (tier: ShareTier) => shareTiers.indexOf(tier);
  const sent = new Map(sessions.map((s) => [s.uid, s.tier]));
  return changed.flatMap((uid) => {
    const from = held.get(uid);
    const to = sent.get(uid);
    return from !== undefined && to !== undefined && rank(to) < rank(from) ? [{ uid, from }] : [];
  });
}
