/**
 * A dated search over texts without a time of their own, on the team server as on the laptop: a legacy Codex rollout
 * (84b6da18, August 2025) dates only its header, so none of its prompts, replies or commands has a time. The laptop
 * dates them by their session's start (index read/search.ts); the team server left every one out of a dated search
 * (a hit's time unknown: not in time), at the full tier and the metadata tier alike, while the list without the
 * search showed the session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import type { SessionsResponse } from '@agentdash/server';
import { repoRoot } from '@agentdash/testing/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDevice, addPerson } from '../src/pg/people.js';
import { forgetSearchMemory } from '../src/pg/search.js';
import { sessionUid } from '../src/push/hash.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const codexTurns = resolve(repoRoot, 'packages/core/test/fixtures/codex/turns');
const UNDATED = '84b6da18';

pgSuite('a dated search over undated texts on the team server', () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;
  let bobToken: string;
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-team-search-undated-'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([codexTurns]);
    await team.pushIndex(index, { tier: 'full' });
    await addPerson(team.db.sql, 'bob');
    ({ token: bobToken } = await addDevice(team.db.sql, 'bob', 'laptop'));
    await team.pushIndex(index, { tier: 'metadata', token: bobToken });
  });
  afterAll(async () => {
    index?.close();
    await team?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The undated session's uid as `person` pushed it. */
  const undatedUid = async (person: string): Promise<string> => {
    const [{ salt } = { salt: '' }] = await team.db.sql<
      { salt: string }[]
    >`select salt from people where name = ${person}`;
    const s = index.listSessions().find((r) => r.id.startsWith(UNDATED));
    if (!s) throw new Error(`no session ${UNDATED} in the fixture`);
    return sessionUid(salt, s.agent, s.key);
  };
  /** The sessions the team's list shows for `q` (each person's copy), with `since` when given. */
  const found = async (q: string, since?: string): Promise<string[]> => {
    forgetSearchMemory();
    const query = new URLSearchParams({ q, ...(since ? { since } : {}) });
    const listed = (await team.request('GET', `/api/sessions?${query}`)).json as unknown as SessionsResponse;
    return listed.sessions.map((r) => r.id).sort();
  };

  it('finds the session by its start at both tiers, as the laptop does', async () => {
    const local = (since?: string) =>
      index
        .search('cargo', { onePerSession: true, ...(since ? { since } : {}) })
        .then((hits) => hits.map((h) => h.sessionId.slice(0, 8)).filter((id) => id === UNDATED));
    expect([await local(), await local('2025-08-01T00:00:00Z'), await local('2025-08-24T00:00:00Z')]).toEqual([
      [UNDATED],
      [UNDATED],
      [],
    ]);
    const both = [await undatedUid('ann'), await undatedUid('bob')].sort();
    const undated = (ids: string[]) => ids.filter((id) => both.includes(id));
    expect(undated(await found('cargo'))).toEqual(both);
    expect(undated(await found('cargo', '2025-08-01'))).toEqual(both);
    expect(undated(await found('cargo', '2025-08-24'))).toEqual([]);
  });
});
