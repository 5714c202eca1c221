/**
 * The sessions a push stores at a lower tier than the server held them: what the higher tier held (transcripts,
 * titles) is gone there once they are stored, by the person's choice, and the push says so (`SessionsResponse.lowered`).
 * The tier a session was lowered from is kept on its row (`lowered_from`, migration 20) until it is stored again: a
 * batch sent again (its first answer lost to a proxy's timeout after the server stored it) is answered "unchanged",
 * and still tells which sessions went lower.
 */
import { type ShareTier, shareTiers } from '../contract.js';

export type Lowered = { uid: string; from: ShareTier };

/**
 * Migration 20: the tier each session was lowered from when it was last stored (null when it was not lowered).
 * Shipped: never edit this text, add a migration.
 */
export const LOWERED_FROM_MIGRATION = `
  alter table sessions add column lowered_from text check (lowered_from in ('summary', 'metadata', 'full'));`;

/** The tier a session sent at `sent` is lowered from, replacing one held at `held` (null: none held, or not lower). */
export function loweredFrom(held: ShareTier | null, sent: ShareTier): ShareTier | null {
  return held !== null && shareTiers.indexOf(sent) < shareTiers.indexOf(held) ? held : null;
}
