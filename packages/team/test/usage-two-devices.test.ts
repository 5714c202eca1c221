/**
 * One person's two devices holding one home at two paths (a home copied or synced to another folder): each device's
 * sessions get their own uids (a uid hashes the transcript's path), so the team holds every session twice. The
 * usage must count each response once, as one laptop's does: it counted both copies (the samples' 45 responses as
 * 90, their cost twice, each top session listed twice). Real PostgreSQL, the real push client.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex, type SessionSummary } from '@agentdash/index';
import { createApp } from '@agentdash/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { digestOf } from '../src/digest.js';
import { erase } from '../src/pg/erase.js';
import { addDevice, addViewer } from '../src/pg/people.js';
import { buildSession } from '../src/push/build.js';
import { expectSameUsage, withCostsOf } from './close-costs.js';
import { pgSuite } from './pg-harness.js';
import { SAMPLES } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

type Totals = {
  responses: number;
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  costUsd: number | null;
};
type Top = Totals & { id: string; title: string | null; project: string | null; startedAt: string | null };
type Usage = {
  totals: Totals;
  days: unknown;
  models: unknown;
  projects: unknown;
  agents: unknown;
  blocks: unknown;
  topSessions: Top[];
  people?: (Totals & { person: string })[];
};

pgSuite("one person's two devices pushing one home held at two paths (real PostgreSQL, the real push client)", () => {
  let team: TeamFixture;
  let dir: string;
  let laptop: AgentIndex;
  let desk: AgentIndex;
  let local: ReturnType<typeof createApp>;
  /** A viewer's token: the reads go on once a device is erased. */
  let viewer: string;

  beforeAll(async () => {
    team = await startTeam();
    const { token: deskToken } = await addDevice(team.db.sql, 'ann', 'desk');
    ({ token: viewer } = await addViewer(team.db.sql, 'lead'));
    dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-two-devices-'));
    const homes = [join(dir, 'laptop', '.claude'), join(dir, 'desk', 'work', '.claude')];
    for (const home of homes) cpSync(SAMPLES, home, { recursive: true });
    laptop = openIndex({ dbPath: join(dir, 'laptop.sqlite') });
    await laptop.refresh([homes[0] as string]);
    desk = openIndex({ dbPath: join(dir, 'desk.sqlite') });
    await desk.refresh([homes[1] as string]);
    local = createApp({ index: laptop, paths: [], host: '127.0.0.1', port: 4317 });
    const first = await team.pushIndex(laptop, { tier: 'metadata' });
    expect(first.stored).toBe(first.sessions);
    const second = await team.pushIndex(desk, { token: deskToken, tier: 'metadata', hostname: 'desk' });
    expect(second.stored).toBe(second.sessions);
  });
  afterAll(async () => {
    laptop?.close();
    desk?.close();
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const localJson = async <T>(path: string): Promise<T> =>
    (await (await local.request(path, { headers: { host: '127.0.0.1:4317' } })).json()) as T;
  const teamJson = async <T>(path: string): Promise<T> =>
    (await team.request('GET', path, undefined, { token: viewer })).json as unknown as T;
  /** The top sessions without their ids (the laptop's key, the team's uid), in order. */
  const tops = (u: Usage) => u.topSessions.map(({ id: _id, ...rest }) => rest);

  /** The team's usage at `query` equals the laptop's, figure for figure (costs within rounding). */
  async function sameUsage(query: string, teamQuery = query): Promise<void> {
    const mine = await localJson<Usage>(`/api/usage?tz=UTC${query}`);
    const theirs = expectSameUsage(mine, await teamJson<Usage>(`/api/usage?tz=UTC${teamQuery}`));
    expect(tops(withCostsOf(mine, theirs))).toEqual(tops(mine));
    // one person: their row is the totals
    const { cacheHitRatio: _ratio, ...totals } = theirs.totals as Totals & { cacheHitRatio: number };
    const people = [{ person: 'ann', ...totals }];
    expect(withCostsOf(people, theirs.people)).toEqual(people);
  }

  it('holds every session twice, one copy per device', async () => {
    const { total } = await teamJson<{ total: number }>('/api/sessions?limit=1');
    expect(total).toBe(2 * laptop.listSessions().length);
  });

  it("counts each response once, as the laptop's own usage and its index's responses do", async () => {
    await sameUsage('');
    await sameUsage('', '&person=ann');
    const responses = laptop.usageResponses();
    const theirs = await teamJson<Usage>('/api/usage?tz=UTC&person=ann');
    const sum = (pick: (r: (typeof responses)[number]) => number) => responses.reduce((n, r) => n + pick(r), 0);
    expect(theirs.totals.responses).toBe(responses.length);
    expect(theirs.totals.inputTokens).toBe(sum((r) => r.tokens.inputTokens));
    expect(theirs.totals.outputTokens).toBe(sum((r) => r.tokens.outputTokens));
    expect(theirs.totals.cacheCreationInputTokens).toBe(sum((r) => r.tokens.cacheCreationInputTokens));
    expect(theirs.totals.cacheReadInputTokens).toBe(sum((r) => r.tokens.cacheReadInputTokens));
    expect(theirs.totals.costUsd).toBeCloseTo(
      sum((r) => r.costUsd ?? 0),
      9,
    );
    // each top session once: as many as the laptop lists, no title twice
    expect(theirs.topSessions.length).toBe((await localJson<Usage>('/api/usage?tz=UTC')).topSessions.length);
  });

  it('counts each response once within a period, in a model, and per device', async () => {
    const times = laptop
      .usageResponses()
      .map((r) => r.timestampMs ?? 0)
      .sort((a, b) => a - b);
    // a period that cuts through the responses, its ends inside quarter-hours
    const since = new Date((times[3] as number) + 1).toISOString();
    const until = new Date((times[times.length - 4] as number) - 1).toISOString();
    await sameUsage(`&since=${since}&until=${until}`);
    await sameUsage('&model=sonnet');
    // one device's copies alone are one laptop's too
    await sameUsage('', '&device=desk');
    await sameUsage('', '&device=ann/laptop');
  });

  it("counts the other device's copy in full once the owning copies' device is erased", async () => {
    // erased beside the server, as `agentdash team erase` does: its answers are dropped once the NOTIFY arrives
    await team.announced(() => erase(team.db.sql, 'ann/laptop'));
    const { total } = await teamJson<{ total: number }>('/api/sessions?limit=2');
    expect(total).toBe(desk.listSessions().length);
    // a query not asked before (an answer cached before the erase's announcement arrived would be the old one)
    await sameUsage('&model=claude');
    expect(await team.sumsDrift()).toEqual([]);
  });

  it("takes an older laptop's responses, which carry no key: each counted, as before", async () => {
    const { token } = await addDevice(team.db.sql, 'ann', 'old');
    const [person] = await team.db.sql<{ salt: string }[]>`select salt from people where name = 'ann'`;
    // the desk's costliest session as a laptop of payload 7 sends it: its responses without their keys
    const [top] = desk.listSessions().sort((a, b) => (b.costUsd ?? 0) - (a.costUsd ?? 0));
    const built = buildSession({ index: desk, salt: person?.salt ?? '' }, top as SessionSummary, 'metadata');
    const responses = built.responses.map(({ key: _key, ...r }) => r);
    const older = { ...built, uid: '0'.repeat(32), responses, digest: '' };
    const sent = await team.request(
      'POST',
      '/api/team/v1/push/sessions',
      { version: 7, sessions: [{ ...older, digest: digestOf(older) }] },
      { token },
    );
    expect(sent.json.data).toMatchObject({ stored: 1 });
    const before = (await localJson<Usage>('/api/usage?tz=UTC')).totals.responses;
    const after = (await teamJson<Usage>('/api/usage?tz=UTC&model=claude-')).totals.responses;
    expect([responses.length > 0, after]).toEqual([true, before + responses.length]);
  });
});
