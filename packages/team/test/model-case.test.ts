/**
 * The model filter ignores case, as the project filter does, on a laptop and on a team server: `--model Sonnet` gave 0
 * responses and $0 where `sonnet` gave 433 (a review helper), with no word that nothing matched. Real PostgreSQL, the
 * real push client over the samples.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgSuite } from './pg-harness.js';
import { SAMPLES } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

pgSuite('the model filter, in any case (real PostgreSQL)', () => {
  let team: TeamFixture;
  let dir: string;
  let laptop: AgentIndex;
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-model-case-'));
    laptop = openIndex({ dbPath: join(dir, 'laptop.sqlite') });
    await laptop.refresh([SAMPLES]);
    await team.pushIndex(laptop, { tier: 'metadata' });
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the same sessions and responses for OPUS-4.6 as for opus-4-6', async () => {
    const figures = async (model: string) => {
      const sessions = (await team.request('GET', `/api/sessions?limit=1&model=${model}`)).json as unknown as {
        total: number;
      };
      const usage = (await team.request('GET', `/api/usage?tz=UTC&model=${model}`)).json as unknown as {
        totals: { responses: number };
      };
      return {
        laptop: [laptop.listSessions({ model }).length, laptop.usageResponses({ model }).length],
        team: [sessions.total, usage.totals.responses],
      };
    };
    const lower = await figures('opus-4-6');
    expect(lower.laptop[0]).toBeGreaterThan(0);
    expect(lower.team).toEqual(lower.laptop);
    expect(await figures('OPUS-4.6')).toEqual(lower);
  });
});
