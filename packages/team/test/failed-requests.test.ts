/**
 * Sessions that died on an API error, on a team server: a laptop's header counts their failed requests
 * (`failedRequests`), so the team's list marks them, "Has errors" keeps them and the errors sort takes them, as the
 * laptop's list does; a session an older laptop pushed (no such count) has none said. Schema 29 fills the list's
 * copy from the sessions stored before it. Real PostgreSQL, the real push client over the recorded API scenarios.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTeamDb } from '../src/pg/db.js';
import { migrate, migrations } from '../src/pg/migrations.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession, seal, uidOf } from './wire.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const apiHome = join(repoRoot, 'packages/core/test/fixtures/claude/claude-home/projects/-home-user-proj-api');

type Row = { id: string; title: string | null; apiErrors?: number; apiRetries?: number };
type List = { sessions: Row[]; total: number; totals: { apiErrors?: number } };

pgSuite('failed requests on a team server (real PostgreSQL, the real push client)', () => {
  let team: TeamFixture;
  let dir: string;
  let laptop: AgentIndex;
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-team-failed-requests-'));
    laptop = openIndex({ dbPath: join(dir, 'laptop.sqlite') });
    await laptop.refresh([apiHome]);
    const pushed = await team.pushIndex(laptop, { tier: 'metadata' });
    expect(pushed.stored).toBe(pushed.sessions);
    // a session as an older laptop sends it: its header's counts without failed requests
    const older = metadataSession(1, 'an older laptop');
    expect((await team.pushSessions([older])).status).toBe(200);
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const list = async (query: string) => (await team.request('GET', `/api/sessions?${query}`)).json as unknown as List;
  const byTitle = (rows: readonly Row[]) =>
    Object.fromEntries(rows.map((r) => [r.title?.split('.')[0] ?? r.id, [r.apiErrors, r.apiRetries]]));

  it("says each session's failed requests and retried attempts as the laptop's list does", async () => {
    // the API's rows say them when there are some (`SessionRow.apiErrors`)
    const some = (n: number | undefined) => (n === 0 ? undefined : n);
    const mine = Object.fromEntries(
      laptop.listSessions().map((s) => [s.title?.split('.')[0], [some(s.apiErrors), some(s.apiRetries)]]),
    );
    const theirs = byTitle((await list('limit=10')).sessions);
    expect(theirs).toEqual({ ...mine, 'an older laptop': [undefined, undefined] });
    expect(theirs['The server keeps failing']).toEqual([1, 1]);
  });

  it('keeps them under "Has errors", sorts them first by errors, and sums them', async () => {
    const errors = await list('hasErrors=1&limit=10');
    // the older laptop's session has an errored call
    const three = ['The server keeps failing', 'This request is rejected', 'an older laptop'];
    expect(errors.sessions.map((r) => r.title?.split('.')[0]).sort()).toEqual(three);
    expect(errors.totals.apiErrors).toBe(2);
    const sorted = await list('sort=errors&dir=desc&limit=3');
    expect(sorted.sessions.map((r) => r.title?.split('.')[0]).sort()).toEqual(three);
    expect(await team.listDrift()).toEqual([]);
  });

  it('schema 29 fills the list from the sessions stored before it', async () => {
    const db = await openTeamDb({ url: team.pg.url, schema: 'team_29' });
    try {
      await migrate(
        db.sql,
        'team_29',
        migrations.filter((m) => m.version <= 28),
      );
      const { digest: _digest, ...plain } = metadataSession(2);
      const failed = seal({
        ...plain,
        header: { ...plain.header, counts: { failedRequests: 1, retriedRequests: 2 } },
      });
      await db.sql.unsafe(`insert into people (name, salt) values ('ann', repeat('ab', 32))`);
      await db.sql`insert into sessions (person_id, uid, tier, digest, agent, session_id, project_hash, models,
        versions, tool_calls, errors, has_errors, tokens, body) values (1, ${uidOf(2)}, 'metadata', ${failed.digest},
        'claude', 's', 'h', '{}', '{}', 0, 0, false, 0, ${db.sql.json(failed as never)})`;
      expect(
        await migrate(
          db.sql,
          'team_29',
          migrations.filter((m) => m.version <= 29),
        ),
      ).toEqual([29]);
      expect(await db.sql`select uid, api_errors from session_list`).toEqual([{ uid: uidOf(2), api_errors: 1 }]);
    } finally {
      await db.close();
    }
  });
});
