/**
 * A session's live flag on a team server, as a laptop's: live while its last record is recent (the index's
 * `LIVE_WINDOW_MS`), whatever was true when it was pushed. A one-shot push of a session being written kept it live
 * on the team for good (the list's row and the session said live, the same list's totals said 0 live) until the
 * next push of that session (a review helper: hal's session still live 2 minutes after its last push).
 */
import { LIVE_WINDOW_MS } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SummarySession } from '../src/contract.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { seal, summarySession, uidOf } from './wire.js';

pgSuite('the live flag on a team server', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  it('says live only while the last record is within the window, as the totals count', async () => {
    const now = Date.now();
    /** Session `n`, pushed as live, its last record `agoMs` before now (it spans a minute). */
    const pushedLive = (n: number, agoMs: number): SummarySession => {
      const { digest: _, ...s } = summarySession(n, new Date(now - agoMs - 60_000).toISOString());
      return seal<SummarySession>({ ...s, isLive: true });
    };
    const pushed = await team.pushSessions([pushedLive(1, 10_000), pushedLive(2, LIVE_WINDOW_MS + 60_000)]);
    expect(pushed.status).toBe(200);
    const list = (await team.request('GET', '/api/sessions')).json as unknown as {
      sessions: { id: string; isLive: boolean }[];
      totals: { live: number };
    };
    const liveOf = (n: number) => list.sessions.find((s) => s.id === uidOf(n))?.isLive;
    expect({ one: liveOf(1), two: liveOf(2), totals: list.totals.live }).toEqual({ one: true, two: false, totals: 1 });
    const one = (await team.request('GET', `/api/sessions/${uidOf(2)}`)).json as unknown as {
      session: { isLive: boolean };
    };
    expect(one.session.isLive).toBe(false);
  });
});
