/**
 * A session's subagents' cache warm-ups (Claude Code 2.0.x) on a team server: the laptop's header counts them, and the
 * team's list and detail said none (a review: 13 of a wild home's 106 sessions lost their count, and with it the
 * timeline's note of what a session of warm-ups alone holds). Real PostgreSQL, the real push client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession } from './wire.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** A session of warm-up requests alone (Claude Code 2.0.76): an empty main file, two subagent files. */
const home = join(repoRoot, 'packages/server/test/fixtures/warmup-only');

type Row = { id: string; title: string | null; warmups?: number; messages: number };

pgSuite('warm-ups on a team server (real PostgreSQL, the real push client)', () => {
  let team: TeamFixture;
  let dir: string;
  let laptop: AgentIndex;
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-team-warmups-'));
    laptop = openIndex({ dbPath: join(dir, 'laptop.sqlite') });
    await laptop.refresh([home]);
    const pushed = await team.pushIndex(laptop, { tier: 'metadata' });
    expect(pushed.stored).toBe(pushed.sessions);
    // an older laptop's session: its header without the count
    expect((await team.pushSessions([metadataSession(1, 'an older laptop')])).status).toBe(200);
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("gives each session's warm-ups as the laptop's list does, in the list and the detail; none when not told", async () => {
    const mine = laptop.listSessions().map((s) => [s.messages, s.warmups]);
    expect(mine).toEqual([[2, 2]]);
    const rows = ((await team.request('GET', '/api/sessions?limit=10')).json as unknown as { sessions: Row[] })
      .sessions;
    const byTitle = Object.fromEntries(rows.map((r) => [r.title ?? '', [r.messages, r.warmups]]));
    expect(Object.values(byTitle)).toContainEqual([2, 2]);
    expect(byTitle['an older laptop']).toEqual([expect.any(Number), undefined]);
    const pushed = rows.find((r) => r.warmups !== undefined);
    const detail = (await team.request('GET', `/api/sessions/${pushed?.id}`)).json as unknown as {
      session: Row;
    };
    expect(detail.session.warmups).toBe(2);
  });
});
