/** `push --forget` and `--unforget`: a session taken off the team server, and later pushes told to leave it out. */
import type { SessionSummary } from '@agentdash/index';
import { idsOut, uidOf } from './build.js';
import type { TeamClient } from './client.js';
import type { ForgottenSessions } from './forgotten.js';

/**
 * Removes sessions from the team server: their uids under this token's person, each with its session id as a push at
 * `summary` sends it (a name-bearing id hashed), so the server drops its telemetry even if it never held the session.
 * They are noted in `forgotten` first, so that no push here sends them again, even one running meanwhile or after the
 * server failed to answer.
 */
export async function forget(
  client: TeamClient,
  summaries: readonly SessionSummary[],
  forgotten?: ForgottenSessions,
): Promise<number> {
  const me = await client.whoami();
  const sessions = summaries.map((s) => ({
    uid: uidOf(me.salt, s),
    sessionId: idsOut(me.salt, s.agent, 'summary').session(s.id),
  }));
  forgotten?.mark(sessions.map((s) => s.uid));
  return client.forgetSessions(sessions);
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
