/**
 * A team server's cached answers after a push or a forget it took itself: fresh at once. They were dropped only when
 * the change's NOTIFY came back on the listening connection, a moment later (longer on a loaded machine: CI saw the
 * list's total of before an erase). Here the server's events never hear a NOTIFY, so only its own count of the
 * changes it took can make its answers fresh. Real PostgreSQL, the real app.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { createTeamApp } from '../src/server/team-app.js';
import type { TeamLiveEvents } from '../src/server/team-live.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession, uidOf } from './wire.js';

/** Live events that never hear anything: as if every NOTIFY were still on its way. */
const deaf: TeamLiveEvents = {
  ready: Promise.resolve(),
  generation: () => 0,
  subscribe: () => () => {},
  publish: () => {},
  refresh: async () => {},
  close: () => {},
};

pgSuite("a team server's answers after a change it took itself (real PostgreSQL)", () => {
  let team: TeamFixture;
  let app: ReturnType<typeof createTeamApp>;
  beforeAll(async () => {
    team = await startTeam();
    app = createTeamApp({ sql: team.db.sql, events: deaf, statistics: team.statistics });
  });
  afterAll(async () => {
    await team?.close();
  });

  const send = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${team.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await app.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as { total?: number; sessions?: { id: string }[] } };
  };
  const listed = async () => {
    const { json } = await send('GET', '/api/sessions?limit=5');
    return { total: json.total, ids: json.sessions?.map((s) => s.id) };
  };

  it('lists a session it stored, and not one it forgot, without waiting for the announcement', async () => {
    expect(await listed()).toEqual({ total: 0, ids: [] });
    const pushed = await send('POST', '/api/team/v1/push/sessions', {
      version: TEAM_PAYLOAD_VERSION,
      sessions: [metadataSession(1)],
    });
    expect(pushed.status).toBe(200);
    expect(await listed()).toEqual({ total: 1, ids: [uidOf(1)] });
    const forgot = await send('POST', '/api/team/v1/push/forget', { version: TEAM_PAYLOAD_VERSION, uids: [uidOf(1)] });
    expect(forgot.status).toBe(200);
    expect(await listed()).toEqual({ total: 0, ids: [] });
  });
});
