/*
 * The planner's statistics follow the pushes (`pg/statistics.ts`): a team's first push is analyzed at once, not on
 * autovacuum's next round, and a push of a few sessions into many does not start an analysis of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepStatistics } from '../src/pg/statistics.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession, sessionsBody } from './wire.js';

describe("the planner's statistics after a push", () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  /** How many times a table was analyzed by hand (autovacuum's own analyses are counted apart), and its count. */
  const analyzed = async (table = 'sessions') => {
    const [row] = await team.db.sql<{ manual: number; planned: number }[]>`
      select s.analyze_count::int as manual, c.reltuples::float8 as planned
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.relid = ${table}::regclass`;
    return row;
  };
  const push = async (from: number, count: number) => {
    const sessions = Array.from({ length: count }, (_, i) => metadataSession(from + i));
    const response = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody(sessions));
    expect(response.status).toBe(200);
    await team.statistics.settled();
  };

  it("are taken after a team's first push, as the push's sessions are counted", async () => {
    expect(await analyzed()).toEqual({ manual: 0, planned: -1 });
    await push(0, 40);
    expect(await analyzed()).toEqual({ manual: 1, planned: 40 });
  });

  it('are taken again once the sessions stored since reach a tenth of those counted', async () => {
    await push(100, 3);
    expect((await analyzed())?.manual).toBe(1);
    // 3 + 7 = 10: the fewest that call for an analysis (a tenth of the 40 counted is 4)
    await push(200, 7);
    expect(await analyzed()).toEqual({ manual: 2, planned: 50 });
  });

  it("analyzes the team's own tables only, the database may hold others'", async () => {
    await team.db.sql`create schema if not exists elsewhere`;
    await team.db.sql`create table elsewhere.theirs as select generate_series(1, 100) as n`;
    // 50 counted: 10 more call for one
    await push(300, 10);
    expect((await analyzed())?.manual).toBe(3);
    expect((await analyzed('elsewhere.theirs'))?.manual).toBe(0);
  });

  it('starts no analysis once closed', async () => {
    const keeper = keepStatistics(team.db.sql);
    await keeper.close();
    keeper.stored(1_000);
    await keeper.settled();
    expect((await analyzed())?.manual).toBe(3);
  });
});
