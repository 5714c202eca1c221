/**
 * The team's usage page ranks sessions in PostgreSQL and sends only those that can be among the top 20: planted
 * costs put the 20th place among three equal sessions, an unpriced session below every priced one and a second
 * project under a filter, and the top sessions are compared with the laptop's. Its other figures come from the sums
 * per person, device and project (`usage_rollup`): a second person's sessions are pushed too, and the answers
 * filtered by person, device and project are ann's laptop's; a filter the rollup cannot answer reads each session's
 * sums and gives the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp } from '@agentdash/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDevice, addPerson, addViewer } from '../src/pg/people.js';
import { teamUsageResponse } from '../src/pg/usage.js';
import { withCostsOf } from './close-costs.js';
import { pgSuite } from './pg-harness.js';
import { writeSession } from './planted-usage.js';
import { startTeam, type TeamFixture } from './team-harness.js';

interface Top {
  readonly title: string | null;
  readonly project: string | null;
  readonly responses: number;
  readonly costUsd: number | null;
}

type Usage = Record<string, unknown> & {
  totals: { responses: number };
  topSessions: (Top & { id: string })[];
  blocks: { isActive: boolean }[];
};

const uuid = (n: number) => `70900000-0000-4000-8000-${String(n).padStart(12, '0')}`;

pgSuite('usage on the team server: the top sessions equal the laptop (real PostgreSQL)', () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;
  let local: ReturnType<typeof createApp>;
  let bob: AgentIndex;
  let viewer: string;
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-top-'));
    const home = join(dir, 'claude-home');
    const at = (n: number, minute: number) => `2026-11-2${n % 3}T1${n % 10}:${String(minute).padStart(2, '0')}:00.000Z`;
    // 18 sessions costlier each than the next, in two projects
    for (let i = 0; i < 18; i++) {
      writeSession(home, i % 2 === 0 ? 'top-a' : 'top-b', uuid(i), [[at(i, 5), 120_000 - i * 3_000]]);
    }
    // three equal sessions for the 19th to 21st places: the 20th place is a tie
    for (let i = 18; i < 21; i++) writeSession(home, 'top-a', uuid(i), [[at(i, 7), 40_000]]);
    // cheaper ones, and one of a model no price table knows (ranked below every priced session)
    writeSession(home, 'top-b', uuid(21), [[at(21, 9), 30_000]]);
    writeSession(home, 'top-b', uuid(22), [[at(22, 9), 20_000]]);
    writeSession(home, 'top-a', uuid(23), [[at(23, 11), 500_000]], 'no-such-model-1');
    // a block still active now: its figures need no more than the quarter-hours of its responses
    const recent = (ago: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - ago * 60_000).toISOString();
    writeSession(home, 'top-b', uuid(24), [
      [recent(50), 10_000],
      [recent(20), 12_000],
    ]);
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([home]);
    local = createApp({ index, paths: [], host: '127.0.0.1', port: 4317 });
    const report = await team.pushIndex(index);
    expect(report.stored).toBe(25);
    // bob's sessions: in no answer filtered to ann
    const bobHome = join(dir, 'bob-home');
    writeSession(bobHome, 'top-a', uuid(90), [[at(1, 5), 150_000]]);
    writeSession(bobHome, 'bob-only', uuid(91), [[at(2, 5), 90_000]]);
    bob = openIndex({ dbPath: join(dir, 'bob.sqlite') });
    await bob.refresh([bobHome]);
    await addPerson(team.db.sql, 'bob');
    const { token } = await addDevice(team.db.sql, 'bob', 'desk');
    const pushed = await team.pushIndex(bob, { token, hostname: 'desk' });
    expect(pushed.stored).toBe(2);
    viewer = (await addViewer(team.db.sql, 'lead')).token;
  });
  afterAll(async () => {
    index?.close();
    bob?.close();
    await team?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The laptop's answer to `query`, and the team's to `query` and `teamQuery` as ann (her device) or a viewer. */
  const both = async (query: string, teamQuery = '', as: 'ann' | 'viewer' = 'ann'): Promise<[Usage, Usage]> => {
    const mine = (await (
      await local.request(`/api/usage${query}`, { headers: { host: '127.0.0.1:4317' } })
    ).json()) as Usage;
    const token = as === 'ann' ? team.token : viewer;
    const theirs = (await team.request('GET', `/api/usage${query}${teamQuery}`, undefined, { token }))
      .json as unknown as Usage;
    // ann's sessions alone: her row is the team's totals
    if (teamQuery !== '') {
      const { cacheHitRatio: _ratio, ...totals } = theirs.totals as Record<string, unknown>;
      expect(theirs.people, `${query}${teamQuery}`).toEqual([{ person: 'ann', ...totals }]);
    }
    return [mine, theirs];
  };
  /**
   * Every figure but the top sessions' links and what moves with the clock between two requests; not the team's
   * breakdown per person (a laptop has none; `both` holds it to the totals).
   */
  const figures = ({ people: _people, ...u }: Usage) => ({
    ...u,
    topSessions: tops(u),
    blocks: (u.blocks as Record<string, unknown>[]).map(
      ({ remainingMs: _r, burnRate: _b, projectedCostUsd: _p, ...b }) => b,
    ),
  });
  /** The top sessions without their links (the team's are uids): equal sessions tie, in either's first-seen order. */
  const tops = (u: Usage) => u.topSessions.map(({ id: _, ...s }) => s);

  for (const query of [
    '?tz=UTC',
    '?tz=UTC&project=top-a',
    '?tz=UTC&model=claude',
    '?tz=UTC&since=2026-11-21T00:00:00Z',
  ]) {
    it(`the top sessions of ${query} are the laptop's`, async () => {
      const [mine, theirs] = await both(query, '&person=ann');
      expect(mine.totals.responses).toBeGreaterThan(0);
      expect(figures(withCostsOf(mine, theirs))).toEqual(figures(mine));
    });
  }

  // a viewer sees bob too unless the filter names ann: by person, device (alone or as PERSON/DEVICE), with a project
  for (const [query, teamQuery] of [
    ['?tz=UTC', '&person=ann'],
    ['?tz=UTC', '&device=laptop'],
    ['?tz=UTC&project=top-a', '&device=ann/laptop'],
    ['?tz=UTC&since=2026-11-21T10:07:00Z', '&person=ann'],
  ]) {
    it(`a viewer's ${query}${teamQuery} is ann's laptop's`, async () => {
      const [mine, theirs] = await both(query ?? '', teamQuery, 'viewer');
      expect(figures(withCostsOf(mine, theirs))).toEqual(figures(mine));
    });
  }

  // the usage route takes no other session filter, but the query does: each session's sums, the same figures
  for (const filter of [{}, { person: 'ann' }, { agent: 'claude', project: 'top-a' }, { since: '2026-11-21T10:07Z' }]) {
    it(`a filter usage_rollup cannot answer gives what it gives: ${JSON.stringify(filter)}`, async () => {
      const now = Date.now();
      const rolled = await teamUsageResponse(team.db.sql, filter, now, 'UTC');
      const perSession = await teamUsageResponse(team.db.sql, { ...filter, hideEmpty: false }, now, 'UTC');
      expect(rolled.totals.responses).toBeGreaterThan(0);
      expect(withCostsOf(rolled, perSession)).toEqual(rolled);
    });
  }

  it("a viewer's answer without a filter holds bob's sessions as well", async () => {
    const [mine, theirs] = await both('?tz=UTC', '', 'viewer');
    expect(theirs.totals.responses).toBe(mine.totals.responses + 2);
    const people = (theirs.people ?? []) as { person: string; responses: number }[];
    expect(people.map((p) => [p.person, p.responses]).sort()).toEqual([
      ['ann', mine.totals.responses],
      ['bob', 2],
    ]);
    expect(mine.blocks.some((b) => b.isActive)).toBe(true);
  });

  it('the planted ranking: 20 sessions listed, the last of three equal ones, the unpriced one left out', async () => {
    const [mine] = await both('?tz=UTC');
    expect(mine.topSessions).toHaveLength(20);
    const costs = mine.topSessions.map((s) => s.costUsd);
    expect(costs[17]).toBeGreaterThan(costs[18] ?? 0);
    expect(costs[18]).toBe(costs[19]);
    expect(mine.topSessions.some((s) => s.costUsd === null)).toBe(false);
  });
});
