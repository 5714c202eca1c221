/**
 * A push that lowers a session's tier, whose answer is lost after the team server stored it (a proxy's 504, a header
 * timeout): the client sends the batch again, and the person is still told which sessions went lower.
 */
import type { AgentIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ShareTier } from '../src/contract.js';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { push } from '../src/push/push.js';
import { pgSuite } from './pg-harness.js';
import { type PlantedIndex, plantedIndex } from './planted-home.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const device = { agentdash: '0.1.0', hostname: 'laptop', platform: 'linux' };

pgSuite('a lowering push sent again after its answer was lost (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  let laptop: PlantedIndex;
  let index: AgentIndex;

  beforeAll(async () => {
    team = await startTeam();
    laptop = await plantedIndex('agentdash-push-lowered-');
    index = laptop.index;
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
  });

  /**
   * A fetch to the real server that, for the first `lost` session batches, lets the server store the batch and then
   * answers as a proxy whose upstream timed out would (504), so the client sends the batch again.
   */
  const losing = (lost: number): typeof fetch => {
    let left = lost;
    return async (input, init) => {
      const answer = await fetch(input, init);
      if (!String(input).endsWith('/push/sessions') || left === 0) return answer;
      left -= 1;
      expect((await answer.json()) as unknown).toMatchObject({ success: true, data: { stored: 1 } });
      return new Response('gateway timeout', { status: 504 });
    };
  };
  const pushAs = (tier: ShareTier, fetcher?: typeof fetch) =>
    push({
      index,
      client: new TeamClient({ url: team.url, token: team.token, retryMs: 0, ...(fetcher ? { fetch: fetcher } : {}) }),
      cache: FileCache.load(undefined),
      policy: { defaultTier: tier, projects: [] },
      device,
    });

  it('tells the sessions lowered though the batch that lowered them was answered by its second sending', async () => {
    expect(await pushAs('full')).toMatchObject({ stored: 1 });
    const lowered = await pushAs('summary', losing(1));
    // Before: the second sending was answered "unchanged" with no word of the tier, and the push said nothing.
    expect(lowered).toMatchObject({ retried: 1, stored: 0, unchanged: 1 });
    expect(lowered.replacedHigher.map((r) => [r.from, r.to])).toEqual([['full', 'summary']]);
    const [row] = await team.db.sql<{ tier: string }[]>`select tier from sessions`;
    expect(row?.tier).toBe('summary');
  });

  it('a push of that tier later tells nothing more, and one lowering it again tells from where', async () => {
    expect((await pushAs('summary')).replacedHigher).toEqual([]);
    expect(await pushAs('metadata')).toMatchObject({ stored: 1, replacedHigher: [] });
    const again = await pushAs('summary', losing(1));
    expect(again.replacedHigher.map((r) => [r.from, r.to])).toEqual([['metadata', 'summary']]);
  });
});
