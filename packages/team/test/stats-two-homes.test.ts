/**
 * One laptop with the same work in two agent homes (a backup of ~/.claude indexed beside the live one), pushed
 * through the real push client (real PostgreSQL): the team's statistics count each call once, as the laptop's do.
 * They counted every call of both copies (378 calls for 189); the list keeps both sessions, each with its calls,
 * on both servers. Twice: the same sessions in both homes, and a resumed session in the backup whose original is
 * only in the live home (another session id, the same calls: counted twice until the team's copies rule followed
 * the laptop's).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp } from '@agentdash/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectSameUsage } from './close-costs.js';
import { pgSuite } from './pg-harness.js';
import { SAMPLES } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

/** A continuation in the samples: the resumed session (its first three calls copied from the original). */
const CONTINUATION = 'projects/-home-user-proj-continuation';
const RESUMED = 'f79d7a1d-b77a-4a29-b202-4e3db74981c3.jsonl';

/** The two homes of a scenario, made in `dir`: the live one and the backup. */
type Homes = (dir: string) => readonly [string, string];

const sameSessions: Homes = (dir) => {
  const backup = join(dir, 'backup', '.claude');
  cpSync(SAMPLES, backup, { recursive: true });
  return [SAMPLES, backup];
};

const resumedInBackup: Homes = (dir) => {
  const live = join(dir, 'live', '.claude');
  const backup = join(dir, 'backup', '.claude');
  cpSync(SAMPLES, live, { recursive: true, filter: (path) => !path.endsWith(RESUMED) });
  mkdirSync(join(backup, CONTINUATION), { recursive: true });
  cpSync(join(SAMPLES, CONTINUATION, RESUMED), join(backup, CONTINUATION, RESUMED));
  return [live, backup];
};

function twoHomes(title: string, homes: Homes, copied: boolean): void {
  pgSuite(`one laptop, ${title} (real PostgreSQL, the real push client)`, () => {
    let team: TeamFixture;
    let dir: string;
    let index: AgentIndex;
    let local: ReturnType<typeof createApp>;
    beforeAll(async () => {
      team = await startTeam();
      dir = mkdtempSync(join(tmpdir(), 'agentdash-two-homes-'));
      index = openIndex({ dbPath: join(dir, 'index.sqlite') });
      await index.refresh([...homes(dir)]);
      local = createApp({ index, paths: [], host: '127.0.0.1', port: 4317 });
      const report = await team.pushIndex(index, { tier: 'full' });
      expect(report.stored).toBe(report.sessions);
    });
    afterAll(async () => {
      index?.close();
      await team?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });
    const localJson = async <T>(path: string): Promise<T> =>
      (await (await local.request(path, { headers: { host: '127.0.0.1:4317' } })).json()) as T;
    const teamJson = async <T>(path: string): Promise<T> => (await team.request('GET', path)).json as unknown as T;

    it('lists both copies of each session, each with its own calls, on both servers', async () => {
      type List = { total: number; sessions: { id: string; toolCalls: number }[] };
      const mine = await localJson<List>('/api/sessions?limit=1000');
      const theirs = await teamJson<List>('/api/sessions?limit=1000');
      expect(theirs.total).toBe(mine.total);
      const calls = (l: List) => l.sessions.reduce((n, s) => n + s.toolCalls, 0);
      expect(calls(theirs)).toBe(calls(mine));
      // every session is there twice (named by its file, the id being ambiguous), or each once
      const ids = mine.sessions.map((s) => s.id.slice(s.id.lastIndexOf('/') + 1));
      expect(new Set(ids).size * (copied ? 2 : 1)).toBe(mine.total);
    });

    it("sums each call once in the list's totals, as the statistics count them (it summed both copies)", async () => {
      type Totals = { totals: { toolCalls: number; errors: number; expectedErrors: number } };
      type Stats = { totals: { calls: number; errors: number; expectedErrors: number } };
      const mine = await localJson<Totals>('/api/sessions?limit=1');
      const theirs = await teamJson<Totals>('/api/sessions?limit=1');
      const stats = await localJson<Stats>('/api/stats');
      expect(mine.totals.toolCalls).toBe(stats.totals.calls);
      expect(theirs.totals).toEqual(mine.totals);
      // and within a period that leaves the owning copies in: the same on both servers
      const period = '/api/sessions?limit=1&since=2020-01-01T00:00:00Z';
      expect((await teamJson<Totals>(period)).totals).toEqual((await localJson<Totals>(period)).totals);
    });

    it("counts each call once in the statistics, as the laptop's do (it counted both copies)", async () => {
      type Stats = { totals: { calls: number; errors: number }; tools: Record<string, { calls: number }> };
      const mine = await localJson<Stats>('/api/stats');
      const theirs = await teamJson<Stats>('/api/stats');
      const listed = await localJson<{ sessions: { toolCalls: number }[] }>('/api/sessions?limit=1000');
      // each call counted in one of its two homes: half the listed calls, or all but the resumed session's copies
      const listedCalls = listed.sessions.reduce((n, s) => n + s.toolCalls, 0);
      expect(copied ? mine.totals.calls * 2 : mine.totals.calls).toBe(copied ? listedCalls : listedCalls - 3);
      expect(theirs.totals).toEqual(mine.totals);
      expect(theirs.tools).toEqual(mine.tools);
    });

    it("sums each response once in the usage, as the laptop's does", async () => {
      type Usage = { totals: unknown; models: unknown; days: unknown };
      expectSameUsage(await localJson<Usage>('/api/usage?tz=UTC'), await teamJson<Usage>('/api/usage?tz=UTC'));
    });
  });
}

twoHomes('the same sessions in two homes', sameSessions, true);
twoHomes('a resumed session in the backup, its original in the live home', resumedInBackup, false);
