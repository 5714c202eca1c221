/**
 * The team server's usage page sums responses per session, UTC quarter-hour, model and request-size band in
 * PostgreSQL. Responses planted where a coarser sum would be wrong — both sides of a model's 200k-token price tier in
 * one quarter-hour, both sides of midnight in a +05:45 time zone within one UTC hour, a 5-hour block that ends
 * mid-hour, two sessions of one project started in one quarter-hour — are pushed and the team's answer compared with
 * the laptop's, figure by figure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp } from '@agentdash/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withCostsOf } from './close-costs.js';
import { pgSuite } from './pg-harness.js';
import { writeSession } from './planted-usage.js';
import { startTeam, type TeamFixture } from './team-harness.js';

type Usage = Record<string, unknown> & {
  totals: { responses: number; costUsd: number };
  days: { date: string; responses: number }[];
  blocks: { start: string; responses: number }[];
  topSessions: { id: string }[];
  time: { byProject: { project: string; sessions: number }[] };
};

pgSuite('usage sums on the team server: bands, quarter-hours and blocks equal the laptop (real PostgreSQL)', () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;
  let local: ReturnType<typeof createApp>;
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-sums-'));
    const home = join(dir, 'claude-home');
    // one quarter-hour, one model: requests at and above the 200k tier's boundary (billed at different rates)
    writeSession(home, 'tiers', '7a1e0000-0000-4000-8000-000000000001', [
      ['2026-11-20T09:00:05.000Z', 200_000],
      ['2026-11-20T09:03:00.000Z', 200_001],
      ['2026-11-20T09:07:00.000Z', 150_000],
      ['2026-11-20T09:14:59.999Z', 260_000],
    ]);
    // a second session of the same project started in the same quarter-hour (the time breakdown sums them, counting 2)
    writeSession(home, 'tiers', '7a1e0000-0000-4000-8000-000000000004', [
      ['2026-11-20T09:05:00.000Z', 20_000],
      ['2026-11-20T09:10:00.000Z', 30_000],
    ]);
    // 18:15 UTC is midnight in Kathmandu (+05:45): one UTC hour, two local days
    writeSession(home, 'kathmandu', '7a1e0000-0000-4000-8000-000000000002', [
      ['2026-11-20T18:05:00.000Z', 10_000],
      ['2026-11-20T18:14:59.999Z', 12_000],
      ['2026-11-20T18:15:00.000Z', 14_000],
      ['2026-11-20T18:40:00.000Z', 16_000],
    ]);
    // a block from 03:00: 07:59 is in it, 08:01 starts the next (the quarter-hour 07:45–08:00 stays whole)
    writeSession(home, 'blocks', '7a1e0000-0000-4000-8000-000000000003', [
      ['2026-11-21T03:20:00.000Z', 5_000],
      ['2026-11-21T07:50:00.000Z', 6_000],
      ['2026-11-21T07:59:59.000Z', 7_000],
      ['2026-11-21T08:01:00.000Z', 8_000],
    ]);
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([home]);
    local = createApp({ index, paths: [], host: '127.0.0.1', port: 4317 });
    const report = await team.pushIndex(index);
    expect(report.stored).toBe(4);
  });
  afterAll(async () => {
    index?.close();
    await team?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const both = async (query: string): Promise<[Usage, Usage]> => {
    const mine = (await (
      await local.request(`/api/usage${query}`, { headers: { host: '127.0.0.1:4317' } })
    ).json()) as Usage;
    const theirs = (await team.request('GET', `/api/usage${query}`)).json as unknown as Usage;
    // one person pushed every session: their row is the team's totals (the period's edges and filters included)
    const { cacheHitRatio: _ratio, ...totals } = theirs.totals as Record<string, unknown>;
    expect(theirs.people, query).toEqual(totals.responses === 0 ? undefined : [{ person: 'ann', ...totals }]);
    return [mine, theirs];
  };
  /**
   * The answer without the session links (the team's are uids) and the time breakdown's per-project names; without
   * the team's breakdown per person too (a laptop has none; `both` holds it to the totals).
   */
  const figures = ({ topSessions, people: _people, ...rest }: Usage) => ({
    ...rest,
    topSessions: topSessions.map(({ id: _, ...s }) => s),
  });

  for (const tz of ['Asia/Kathmandu', 'UTC', 'America/St_Johns']) {
    it(`every figure equals the laptop's in ${tz}`, async () => {
      const [mine, theirs] = await both(`?tz=${tz}`);
      expect(mine.totals.responses).toBe(14);
      expect(figures(withCostsOf(mine, theirs))).toEqual(figures(mine));
    });
  }

  it('the planted cases are the ones a coarser sum gets wrong', async () => {
    const [mine] = await both('?tz=Asia/Kathmandu');
    // the Kathmandu session's responses split by local midnight, 18:15 UTC
    expect(mine.days.map((d) => [d.date, d.responses])).toEqual([
      ['2026-11-20', 8],
      ['2026-11-21', 6],
    ]);
    // the two sessions of one project started in one quarter-hour, counted apart
    expect(mine.time.byProject.find((p) => p.project.endsWith('/tiers'))?.sessions).toBe(2);
    // blocks from 09:00, 18:00, 03:00 and 08:00 UTC
    expect(mine.blocks.map((b) => [b.start, b.responses])).toEqual([
      ['2026-11-20T09:00:00.000Z', 6],
      ['2026-11-20T18:00:00.000Z', 4],
      ['2026-11-21T03:00:00.000Z', 3],
      ['2026-11-21T08:00:00.000Z', 1],
    ]);
  });

  it('a model filter and a period sum only the responses they select', async () => {
    const [mine, theirs] = await both('?tz=Asia/Kathmandu&since=2026-11-20T18:10:00.000Z&until=2026-11-21T08:00:00Z');
    expect(mine.totals.responses).toBe(6);
    expect(figures(withCostsOf(mine, theirs))).toEqual(figures(mine));
  });

  // periods cutting quarter-hours (their responses summed at the request, the kept sums between), or within one
  for (const [since, until, n] of [
    ['2026-11-20T09:03:00.000Z', '2026-11-21T07:59:59.500Z', 12],
    ['2026-11-20T09:03:00.000Z', '2026-11-20T09:10:00.000Z', 4],
    ['2026-11-20T09:15:00.000Z', '', 8],
    ['', '2026-11-20T18:14:59.999Z', 8],
  ] as const) {
    it(`the period ${since || '…'} to ${until || '…'} sums what the laptop sums`, async () => {
      const [mine, theirs] = await both(`?tz=UTC${since && `&since=${since}`}${until && `&until=${until}`}`);
      expect(mine.totals.responses).toBe(n);
      expect(figures(withCostsOf(mine, theirs))).toEqual(figures(mine));
    });
  }
});
