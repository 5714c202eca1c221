/** The team dashboard's API over pushed sessions: auth, person/device filters, tiers, timelines, usage, search. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../../server/test/app-harness.js';
import { indexMissingDocs } from '../src/pg/ingest.js';
import { addDevice, addPerson, addViewer, revoke } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, metadataSession, sessionsBody, summarySession, uidOf } from './wire.js';

const SAMPLE = join(SAMPLES, 'projects/-home-user-proj-shell/5546c9dc-f77a-4128-bec8-c0c6a466b9a7.jsonl');

pgSuite('team dashboard API (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  let bob: string;
  let viewer: string;
  let local: TestApp;
  const chunks = chunksOf(
    readFileSync(SAMPLE, 'utf8')
      .split(/(?<=\n)/)
      .reduce<string[]>((parts, line, i) => {
        // three lines a chunk: several chunks, whole lines each
        if (i % 3 === 0) parts.push(line);
        else parts[parts.length - 1] += line;
        return parts;
      }, []),
  );
  beforeAll(async () => {
    team = await startTeam();
    await addPerson(team.db.sql, 'bob');
    bob = (await addDevice(team.db.sql, 'bob', 'desktop')).token;
    viewer = (await addViewer(team.db.sql, 'lead')).token;
    for (const c of chunks) {
      await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
    }
    const full = fullSession(3, chunks);
    const annPush = sessionsBody([summarySession(1), metadataSession(2), full]);
    expect((await team.request('POST', '/api/team/v1/push/sessions', annPush)).status).toBe(200);
    const bobPush = sessionsBody([metadataSession(4, 'bob fixes the build')]);
    expect((await team.request('POST', '/api/team/v1/push/sessions', bobPush, { token: bob })).status).toBe(200);
    local = await appOver([SAMPLES]);
  });
  afterAll(async () => {
    await local?.close();
    await team?.close();
  });
  const get = async (path: string, token: string | null = viewer) => {
    const res = await team.request('GET', path, undefined, { token });
    return { status: res.status, json: res.json as unknown as Record<string, unknown> };
  };

  it('health says it is a team server and which tiers it holds', async () => {
    const health = await get('/api/health');
    expect([health.json.mode, health.json.tiers]).toEqual(['team', ['summary', 'metadata', 'full']]);
  });

  it('keeps a token given in the address in an httpOnly cookie, Secure behind a proxy that says HTTPS', async () => {
    const viewer = await addViewer(team.db.sql, 'cookie-reader');
    const cookieOf = async (headers: Record<string, string>) => {
      const res = await fetch(`${team.url}/api/health?token=${viewer.token}`, { headers });
      return res.headers.get('set-cookie') ?? '';
    };
    const plain = await cookieOf({});
    expect(plain).toMatch(/HttpOnly/);
    expect(plain).not.toMatch(/Secure/);
    expect(await cookieOf({ 'x-forwarded-proto': 'https' })).toMatch(/; Secure/);
  });

  it('every read needs an active token: none, unknown or revoked is 401', async () => {
    expect((await get('/api/sessions', null)).status).toBe(401);
    expect((await get('/api/sessions', 'adt_unknown')).status).toBe(401);
    const gone = await addViewer(team.db.sql, 'temp');
    expect((await get('/api/sessions', gone.token)).status).toBe(200);
    await revoke(team.db.sql, 'temp');
    expect((await get('/api/sessions', gone.token)).status).toBe(401);
  });

  it('lists every pushed session with who pushed it and at which tier; person and device filter', async () => {
    const all = (await get('/api/sessions')).json as { total: number; sessions: Record<string, unknown>[] };
    expect(all.total).toBe(4);
    const byId = new Map(all.sessions.map((s) => [s.id, [s.person, s.device, s.tier, s.title]]));
    expect(byId.get(uidOf(1))).toEqual(['ann', 'laptop', 'summary', null]);
    expect(byId.get(uidOf(2))).toEqual(['ann', 'laptop', 'metadata', 'fix the build 2']);
    expect(byId.get(uidOf(4))).toEqual(['bob', 'desktop', 'metadata', 'bob fixes the build']);
    const bobs = (await get('/api/sessions?person=bob', bob)).json as { total: number };
    expect(bobs.total).toBe(1);
    expect(((await get('/api/sessions?device=ann/laptop')).json as { total: number }).total).toBe(3);
    expect(((await get('/api/sessions?device=desktop')).json as { total: number }).total).toBe(1);
    // a name no one has (a typo: "Ann") is a 400 naming those there are, never an empty list and $0 (a review)
    for (const [query, error] of [
      ['/api/sessions?person=Ann', 'person "Ann" is not on this team (ann, bob'],
      ['/api/usage?person=nobody', 'person "nobody" is not on this team (ann, bob'],
      ['/api/sessions?device=ann/nope', 'device "ann/nope" is not on this team (ann/laptop, '],
      ['/api/stats?device=nope', 'device "nope" is not on this team (ann/laptop, '],
      // a device of another person's, with a person (a review: both checked alone, it answered nothing)
      ['/api/sessions?person=ann&device=desktop', `device "desktop" is not ann's (their devices: ann/laptop`],
      ['/api/sessions?person=bob&device=ann/laptop', `device "ann/laptop" is not bob's (their devices: bob/desktop`],
    ] as const) {
      const r = await get(query);
      expect([query, r.status, (r.json as { code: string }).code]).toEqual([query, 400, 'BAD_QUERY']);
      expect((r.json as { error: string }).error).toContain(error);
    }
    // a summary-tier session shows its project as a salted hash, never a name
    const summary = all.sessions.find((s) => s.id === uidOf(1));
    expect(summary?.projectPath).toMatch(/^#[0-9a-f]{8}$/);
  });

  it('answers a list filtered by a file with a 400 of its own code, never the list unfiltered', async () => {
    for (const query of ['file=src/app.ts', 'file=%2Fhome%2Fu%2Fapp.ts&person=ann', 'file=app.ts&q=build']) {
      const res = await get(`/api/sessions?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json, query).toMatchObject({ success: false, code: 'FILE_FILTER_UNSUPPORTED' });
      expect(res.json.error, query).toContain('no tool inputs are pushed');
    }
  });

  it("lists the people and their devices for the dashboard's filter", async () => {
    expect((await get('/api/team/people')).json).toEqual({
      people: [
        { name: 'ann', devices: ['laptop'], sessions: 3 },
        { name: 'bob', devices: ['desktop'], sessions: 1 },
      ],
    });
  });

  it("a lower tier's timeline says which tier it was shared at; its header comes from the push", async () => {
    const header = await get(`/api/sessions/${uidOf(1)}`);
    expect([header.status, (header.json as { totalEvents: number }).totalEvents]).toEqual([200, 10]);
    const hidden = {
      status: 404,
      json: {
        success: false,
        error: 'this session was shared at the summary tier: its transcript stays on the laptop',
        code: 'TEAM_TIER_HIDES',
      },
    };
    expect(await get(`/api/sessions/${uidOf(1)}/events`)).toEqual(hidden);
    // every route made from the transcript says so alike
    expect(await get(`/api/sessions/${uidOf(1)}/files`)).toEqual(hidden);
    expect(await get(`/api/sessions/${uidOf(1)}/waterfall`)).toEqual(hidden);
    // a session no one pushed: the local server's answer and code
    const none = { status: 404, json: { success: false, error: 'session not found', code: 'UNKNOWN_SESSION' } };
    expect(await get(`/api/sessions/${'0'.repeat(32)}/events`)).toEqual(none);
  });

  it('a full-tier timeline, rebuilt from its chunks, equals the local one', async () => {
    const team3 = (await get(`/api/sessions/${uidOf(3)}/events?limit=500`)).json as {
      total: number;
      events: unknown[];
    };
    const localId = '5546c9dc-f77a-4128-bec8-c0c6a466b9a7';
    const mine = await local.json<{ total: number; events: unknown[] }>(`/api/sessions/${localId}/events?limit=500`);
    expect(team3.total).toBe(mine.total);
    expect(team3.total).toBeGreaterThan(3);
    expect(JSON.stringify(team3.events).replaceAll(uidOf(3), localId)).toBe(JSON.stringify(mine.events));
  });

  it('a session shared below the full tier lists its calls, as much of them as its tier holds', async () => {
    type Calls = {
      calls: { callId: string; tool: string; status: string; category: string | null; summary: string }[];
    };
    const callsOf = async (n: number) =>
      ((await get(`/api/sessions/${uidOf(n)}/calls`)).json as Calls).calls.map((c) => [
        c.callId,
        c.status,
        c.category,
        c.summary,
      ]);
    // summary tier: what each call was and how it ended, never what it did
    expect(await callsOf(1)).toEqual([
      ['toolu_1_1', 'error', 'test-failure', 'Bash'],
      ['toolu_1_2', 'ok', null, 'Edit'],
    ]);
    // metadata tier: its one-line summary, and the error message of a failed one
    expect(await callsOf(2)).toEqual([
      ['toolu_2_1', 'error', 'test-failure', '1 test failed'],
      ['toolu_2_2', 'ok', null, 'Edit a.ts +3 −1'],
    ]);
    // another person's session, to a viewer
    expect(await callsOf(4)).toHaveLength(2);
    expect((await get(`/api/sessions/${uidOf(99)}/calls`)).status).toBe(404);
  });

  it('usage counts each pushed response once, priced by the same table', async () => {
    const usage = (await get('/api/usage')).json as {
      totals: { responses: number; inputTokens: number; outputTokens: number };
      days: { date: string }[];
    };
    // sessions 1-4: two responses each, input 1000 + n then 0, output 100 each
    expect(usage.totals.responses).toBe(8);
    expect(usage.totals.inputTokens).toBe(1001 + 1002 + 1003 + 1004);
    expect(usage.totals.outputTokens).toBe(800);
    expect(usage.days.map((d) => d.date)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    const bobs = (await get('/api/usage?person=bob')).json as { totals: { responses: number } };
    expect(bobs.totals.responses).toBe(2);
  });

  it("usage per person: each person's row is their own usage, and the rows add up to the totals", async () => {
    type Group = { responses: number; inputTokens: number; outputTokens: number; costUsd: number | null };
    type Usage = { totals: Group; people?: (Group & { person: string })[] };
    const figures = (g: Group) => [g.responses, g.inputTokens, g.outputTokens, g.costUsd];
    // the sums from usage_rollup (no filter, or one its columns answer), and from each session's (a model filter)
    for (const query of ['', '?agent=claude', '?model=claude']) {
      const usage = (await get(`/api/usage${query}`)).json as Usage;
      expect(
        usage.people?.map((p) => p.person),
        query,
      ).toEqual(['ann', 'bob']);
      const [ann, bob] = usage.people ?? [];
      // the costs are held to each person's own totals below
      expect(figures(ann!).slice(0, 3), query).toEqual([6, 1001 + 1002 + 1003, 600]);
      expect(figures(bob!).slice(0, 3), query).toEqual([2, 1004, 200]);
      for (const person of usage.people ?? []) {
        const sep = query === '' ? '?' : '&';
        const own = (await get(`/api/usage${query}${sep}person=${person.person}`)).json as Usage;
        expect(figures(person), `${person.person}${query}`).toEqual(figures(own.totals));
        // one person in scope: their row only
        expect(own.people?.map((p) => p.person)).toEqual([person.person]);
      }
      expect(ann!.costUsd! + bob!.costUsd!).toBeCloseTo(usage.totals.costUsd!, 9);
    }
    // a laptop's answer names no person
    const mine = await local.json<Usage>('/api/usage');
    expect(mine.people).toBeUndefined();
  });

  it('stats count the pushed calls per tool', async () => {
    const stats = (await get('/api/stats')).json as {
      totals: { calls: number; errors: number; sessions: number };
      tools: { tool: string; calls: number; errors: number; p50: number | null }[];
    };
    expect(stats.totals).toEqual({ calls: 8, errors: 4, expectedErrors: 0, sessions: 4 });
    expect(stats.tools.map((t) => [t.tool, t.calls, t.errors, t.p50])).toEqual([
      // equal calls: in the order of the tools' first names (Bash, Edit), as the local index lists them
      ['shell', 4, 4, 1200],
      ['edit', 4, 0, 15],
    ]);
  });

  it('search finds titles and call summaries at the metadata tier, never a summary-tier session', async () => {
    const hits = (await get('/api/sessions?q=build')).json as { sessions: { id: string; snippet?: string }[] };
    // session 3 (full) has that title too, but a full-tier session is searched as the laptop searches it: its
    // transcript, which does not say "build"
    expect(hits.sessions.map((s) => s.id).sort()).toEqual([uidOf(2), uidOf(4)].sort());
    const calls = (await get('/api/sessions?q=npm%20test')).json as { sessions: { id: string }[] };
    expect(calls.sessions.map((s) => s.id).sort()).toEqual([uidOf(2), uidOf(4)].sort());
  });

  it('search with since selects hits by their own time, as the local search does', async () => {
    // session 2 ran 10:00–10:01 on 2026-03-03 and its `npm test` call was at 10:00: the session ends after `since`,
    // its hit does not; session 4's hit (2026-03-05) does
    const since = encodeURIComponent('2026-03-03T10:00:30.000Z');
    const later = (await get(`/api/sessions?q=npm%20test&since=${since}`)).json as { sessions: { id: string }[] };
    expect(later.sessions.map((s) => s.id)).toEqual([uidOf(4)]);
  });

  it("search at the full tier finds the transcript's words, as the local search does", async () => {
    for (const q of ['exercise', 'shell tools', '"the shell"', 'exerc*', 'shell nosuchword']) {
      const path = `/api/sessions?q=${encodeURIComponent(q)}`;
      const mine = await local.json<{ sessions: { id: string; snippet?: string }[] }>(path);
      const theirs = (await get(path)).json as { sessions: { id: string; snippet?: string }[] };
      const localId = '5546c9dc-f77a-4128-bec8-c0c6a466b9a7';
      const expected = mine.sessions.some((s) => s.id === localId) ? [uidOf(3)] : [];
      expect([q, theirs.sessions.map((s) => s.id)]).toEqual([q, expected]);
    }
    // the snippet is cut as the laptop cuts it
    const exercise = (await get('/api/sessions?q=exercise')).json as { sessions: { snippet?: string }[] };
    const mine = await local.json<{ sessions: { id: string; snippet?: string }[] }>('/api/sessions?q=exercise');
    const localHit = mine.sessions.find((s) => s.id === '5546c9dc-f77a-4128-bec8-c0c6a466b9a7');
    expect(exercise.sessions[0]?.snippet).toBe(localHit?.snippet);
    expect(localHit?.snippet).toMatch(/Exercise/);
  });

  it('full-tier sessions stored before their transcripts were searchable are indexed at start', async () => {
    // each asked with another limit: a search answer is kept a while (the dashboard's cache), this asks afresh
    let limit = 10;
    const found = async () =>
      ((await get(`/api/sessions?q=exercise&limit=${limit++}`)).json as { total: number }).total;
    expect(await found()).toBe(1);
    await team.db.sql`delete from search_words`;
    expect(await found()).toBe(0);
    expect(await indexMissingDocs(team.db.sql)).toBe(1);
    expect(await indexMissingDocs(team.db.sql)).toBe(0);
    expect(await found()).toBe(1);
  });
});
