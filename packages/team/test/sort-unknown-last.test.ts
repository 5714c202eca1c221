/**
 * The team's sessions list sorted by cost, wall time or title puts the sessions whose value is unknown (a model
 * without a price, a session of a prompt alone, one without a title) last in either direction, as the laptop's list
 * does: ascending, they came first (untitled ones first by title either way).
 * Real PostgreSQL, real HTTP.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgSuite } from './pg-harness.js';
import { SAMPLES } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

pgSuite('the team list sorted by cost, wall time and title (real PostgreSQL)', () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;

  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-team-unknown-last-'));
    const home = join(dir, '.claude');
    cpSync(join(SAMPLES, 'projects', '-home-user-proj-api'), join(home, 'projects', '-home-user-proj-api'), {
      recursive: true,
    });
    const id = 'c3c3c3c3-0000-4000-8000-000000000003';
    const at = basesOf(id);
    writeLines(join(home, 'projects', '-p', `${id}.jsonl`), [
      prompt(at('c3-u1', null, 1), 'Hello'),
      assistantText(at('c3-a1', 'c3-u1', 3), 'msg_c3', 'Hi.').replace('claude-opus-5-5', 'claude-nonesuch-9'),
    ]);
    // a prompt alone: no wall time
    const alone = 'd4d4d4d4-0000-4000-8000-000000000004';
    writeLines(join(home, 'projects', '-p', `${alone}.jsonl`), [prompt(basesOf(alone)('d4-u1', null, 1), 'Anyone?')]);
    // a response alone: no title ("Untitled session", first by title before)
    const untitled = 'e5e5e5e5-0000-4000-8000-000000000005';
    writeLines(join(home, 'projects', '-p', `${untitled}.jsonl`), [
      assistantText(basesOf(untitled)('e5-a1', null, 2), 'msg_e5', 'Done.'),
    ]);
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([home]);
    // metadata: titles sent (the summary tier sends none)
    expect((await team.pushIndex(index, { tier: 'metadata' })).stored).toBeGreaterThan(3);
  });
  afterAll(async () => {
    index?.close();
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the unknown ones last, ascending and descending, as the laptop does', async () => {
    for (const [sort, unknown] of [
      ['costUsd', (s: { costUsd: number | null }) => s.costUsd === null],
      // the team's answer writes an unknown wall time as null, the laptop's leaves it out
      ['durationMs', (s: { durationMs?: number | null }) => s.durationMs === undefined || s.durationMs === null],
      ['title', (s: { title?: string | null }) => s.title === undefined || s.title === null],
    ] as const) {
      for (const dir of ['asc', 'desc']) {
        const answer = await team.request('GET', `/api/sessions?sort=${sort}&dir=${dir}&limit=100`);
        const sessions = (answer.json as unknown as { sessions: { costUsd: number | null; durationMs?: number }[] })
          .sessions;
        const flags = sessions.map((s) => unknown(s as never));
        expect(flags.some(Boolean), `${sort} ${dir}`).toBe(true);
        // every unknown after every known one
        expect(flags, `${sort} ${dir}`).toEqual([...flags].sort((a, b) => Number(a) - Number(b)));
        const local = index.pageSessions({}, { sort, descending: dir === 'desc', limit: 100 }).sessions;
        expect(
          local.map((s) => unknown(s as never)),
          `${sort} ${dir}: the laptop's`,
        ).toEqual(flags);
      }
    }
  });
});
