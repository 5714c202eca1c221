/** `push --forget` and `--unforget`: a session taken off the team server, and later pushes told to leave it out. */
import type { SessionSummary } from '@agentdash/index';
import { uidOf } from './build.js';
import type { TeamClient } from './client.js';
import type { ForgottenSessions } from './forgotten.js';

/**
 * Removes sessions from the team server: their uids under this token's person. They are noted in `forgotten` first, so
 * that no push here sends them again, even one running meanwhile or after the server failed to answer.
 */
export async function forget(
  client: TeamClient,
  summaries: readonly SessionSummary[],
  forgotten?: ForgottenSessions,
): Promise<number> {
  const me = await client.whoami();
  const uids = summaries.map((s) => uidOf(me.salt, s));
  forgotten?.mark(uids);
  return client.forget(uids);
}

/**
 * Lets later pushes send the sessions again (`push --unforget`): the team server's record of them cleared first (one
 * forgotten from another laptop of this person's too), then this laptop's list. Returns how many were forgotten, here
 * or there.
 */
export async function unforget(
  client: TeamClient,
  summaries: readonly SessionSummary[],
  forgotten: ForgottenSessions,
): Promise<number> {
  const me = await client.whoami();
  const uids = summaries.map((s) => uidOf(me.salt, s));
  const cleared = await client.unforget(uids);
  const here = uids.filter((uid) => forgotten.has(uid));
  forgotten.mark(here, false);
  return new Set([...here, ...cleared]).size;
}
