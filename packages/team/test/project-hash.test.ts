/**
 * A project named by its hash (the summary tier's, `#0894e045`) selects the sessions the pages name so, and no
 * session of the same project that another device sent with its path: the hash's figures equal its usage row's, and a
 * drill-down from the hash never shows the path it stands for.
 */
import type { UsageResponse } from '@agentdash/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession, summarySession } from './wire.js';

pgSuite('a project filter by hash (real PostgreSQL)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
    // one person's project, pushed at the summary tier (sessions 0 and 3) and with its path (session 6)
    const pushed = await team.pushSessions([summarySession(0), summarySession(3), metadataSession(6)]);
    expect(pushed.json.data).toMatchObject({ stored: 3 });
  });
  afterAll(async () => {
    await team?.close();
  });

  it("selects the sessions named by the hash, and its usage row's figures", async () => {
    const usage = (await team.request('GET', '/api/usage')).json as unknown as UsageResponse;
    const hashed = usage.projects.find((p) => p.project.startsWith('#'));
    const pathed = usage.projects.find((p) => p.project === '/home/dev/app0');
    expect([hashed?.responses, pathed?.responses].every((n) => (n ?? 0) > 0)).toBe(true);
    const name = encodeURIComponent(hashed?.project ?? '');
    const list = (await team.request('GET', `/api/sessions?project=${name}&limit=10`)).json as unknown as {
      total: number;
      sessions: { projectPath: string | null }[];
    };
    // Before: 3 sessions, the path's among them, and the usage of the hash 1.5 times its row's.
    expect(list.total).toBe(2);
    expect(list.sessions.map((s) => s.projectPath)).toEqual([hashed?.project, hashed?.project]);
    const filtered = (await team.request('GET', `/api/usage?project=${name}`)).json as unknown as UsageResponse;
    expect(filtered.totals.responses).toBe(hashed?.responses);
    expect(filtered.totals.costUsd).toBe(hashed?.costUsd);
  });
});
