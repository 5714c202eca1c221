import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { assistantText, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail, SessionsResponse, UsageResponse } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Two sessions of 21 Nov 2026 (packages/core/test/fixtures/usage). */
const home = resolve(here, '../../core/test/fixtures/usage');
const HOST = { host: '127.0.0.1:4317' };

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-server-usage-'));
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([home]);
  app = createApp({ index, paths: [home], host: '127.0.0.1', port: 4317, assetsDir: tmp });
});
afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

const json = async <T>(path: string): Promise<T> => {
  const res = await app.request(path, { headers: HOST });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

const sonnetA = (3879 * 3 + 141 * 15 + 3922 * 3.75 + 10823 * 0.3) / 1e6;
const sonnetB = (10 * 3 + 50 * 15 + 1000 * 3.75 + 4000 * 6 + 14000 * 0.3) / 1e6;
const gateway = (100 * 3 + 10 * 15 + 200 * 3 + 20 * 15) / 1e6;
const sonnetD = (5 * 3 + 40 * 15 + 100 * 3.75 + 20000 * 0.3) / 1e6;
const haikuC = (7 * 1 + 30 * 5 + 300 * 0.1) / 1e6;

describe('GET /api/usage', () => {
  it('days, models, projects, top sessions, blocks and time, each response once', async () => {
    const body = await json<UsageResponse>('/api/usage');
    expect(body.totals.responses).toBe(6);
    expect(body.totals.costUsd).toBeCloseTo(sonnetA + sonnetB + gateway + sonnetD + haikuC, 12);
    expect(body.totals.cacheHitRatio).toBeCloseTo(
      (10823 + 14000 + 300 + 20000) / (3879 + 10 + 100 + 200 + 7 + 5 + 3922 + 5000 + 100 + 10823 + 14000 + 300 + 20000),
      12,
    );
    expect(body.days.map((d) => [d.date, d.responses])).toEqual([['2026-11-21', 6]]);
    expect(body.models.map((m) => [m.model, m.responses])).toEqual([
      ['claude-sonnet-4-5-20250929', 5],
      ['claude-haiku-4-5-20251001', 1],
    ]);
    expect(body.topSessions.map((s) => [s.id.slice(0, 8), s.responses])).toEqual([
      ['5d1f6c2a', 5],
      ['7e2a9b4c', 1],
    ]);
    expect(body.blocks.map((b) => [b.start, b.responses])).toEqual([['2026-11-21T10:00:00.000Z', 6]]);
    expect(body.time.byProject).toEqual([
      // 5d1f6c2a: 69 s (see the index test); 7e2a9b4c: the copied record 10:00:02 → 11:00:01, a wait over 15 min.
      expect.objectContaining({ project: '/home/user/proj/usage', sessions: 2 }),
    ]);
    const t = body.time.byProject[0];
    expect(t && t.modelMs + t.toolMs + t.userMs + t.idleMs).toBe(t?.wallMs);
  });

  it('filters by model and time; rejects a bad date', async () => {
    const haiku = await json<UsageResponse>('/api/usage?model=haiku');
    expect(haiku.totals.responses).toBe(1);
    const later = await json<UsageResponse>('/api/usage?since=2026-11-21T10:30:00Z');
    expect(later.totals.responses).toBe(1);
    const bad = await app.request('/api/usage?since=yesterday-ish', { headers: HOST });
    expect(bad.status).toBe(400);
  });

  it("keys days in the time zone the browser names (tz), not the server's; rejects an unknown zone", async () => {
    // 10:00–11:00 UTC on the 21st is the 22nd at UTC+14
    const kiritimati = await json<UsageResponse>('/api/usage?tz=Pacific/Kiritimati');
    expect(kiritimati.days.map((d) => [d.date, d.responses])).toEqual([['2026-11-22', 6]]);
    expect(kiritimati.time.byDay.map((d) => d.date)).toEqual(['2026-11-22']);
    const utc = await json<UsageResponse>('/api/usage?tz=UTC');
    expect(utc.days.map((d) => d.date)).toEqual(['2026-11-21']);
    const bad = await app.request('/api/usage?tz=Mars%2FOlympus', { headers: HOST });
    expect(bad.status).toBe(400);
  });

  it('session rows carry cost, tokens and time', async () => {
    const list = await json<SessionsResponse>('/api/sessions');
    const first = list.sessions.find((s) => s.id.startsWith('5d1f6c2a'));
    expect(first?.costUsd).toBeCloseTo(sonnetA + sonnetB + gateway + haikuC, 12);
    // The synthetic API error (10:01:05) is no model response: the second before it is the client's, after a prompt.
    expect(first?.time).toEqual({ wallMs: 69_000, modelMs: 6_000, toolMs: 1_000, userMs: 62_000, idleMs: 0 });
    expect(first?.unpricedModels).toEqual([]);
  });
});

describe('GET /api/sessions/:id of a resumed session', () => {
  it('names the session its copies come from, with their calls, responses and cost', async () => {
    const header = await json<SessionDetail>('/api/sessions/7e2a9b4c-1d3f-4a6b-8c7d-3e1f5a2b9c22');
    expect(header.copiedFrom).toEqual([
      {
        ref: '5d1f6c2a-0b6e-4f7e-9a51-2f0c3a9d8e11',
        title: 'Read notes.txt and summarise it.',
        sameSession: false,
        calls: 1,
        errors: 0,
        expectedErrors: 0,
        prompts: 0,
        responses: 1,
        costUsd: expect.closeTo(sonnetA, 12),
        callIds: ['toolu_01R'],
      },
    ]);
    // Its own cost: the copied response counts for the session it was resumed from (as in the list and usage).
    expect(header.session.costUsd).toBeCloseTo(sonnetD, 12);
    expect((await json<SessionDetail>('/api/sessions/5d1f6c2a-0b6e-4f7e-9a51-2f0c3a9d8e11')).copiedFrom).toEqual([]);
  });
});

describe('GET /api/usage per agent', () => {
  const codexHome = resolve(here, '../../core/test/fixtures/codex/0.98.0/codex-home');
  let mixedTmp: string;
  let mixed: AgentIndex;
  let mixedApp: ReturnType<typeof createApp>;
  beforeAll(async () => {
    mixedTmp = await mkdtemp(join(tmpdir(), 'agentdash-server-usage-agents-'));
    mixed = openIndex({ dbPath: join(mixedTmp, 'index.sqlite') });
    await mixed.refresh([home, codexHome]);
    mixedApp = createApp({
      index: mixed,
      paths: [home, codexHome],
      host: '127.0.0.1',
      port: 4317,
      assetsDir: mixedTmp,
    });
  });
  afterAll(async () => {
    mixed.close();
    await rm(mixedTmp, { recursive: true, force: true });
  });
  const usage = async (query: string): Promise<UsageResponse> => {
    const res = await mixedApp.request(`/api/usage${query}`, { headers: HOST });
    expect(res.status, query).toBe(200);
    return (await res.json()) as UsageResponse;
  };

  it('splits the responses by the agent of their session, each as its own filtered query counts it', async () => {
    const all = await usage('');
    expect(all.agents.map((a) => a.agent)).toEqual(['claude', 'codex']);
    expect(all.agents.find((a) => a.agent === 'claude')?.responses).toBe(6);
    expect(all.agents.reduce((n, a) => n + a.responses, 0)).toBe(all.totals.responses);
    for (const a of all.agents) {
      const one = await usage(`?agent=${a.agent}`);
      expect(one.agents).toEqual([a]);
      expect(one.totals.responses).toBe(a.responses);
      expect(one.totals.inputTokens).toBe(a.inputTokens);
    }
  });
});

describe('GET /api/usage: more 5-hour blocks than it lists', () => {
  it('lists the 30 most recent and counts them all', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdash-server-blocks-'));
    try {
      const id = '35353535-0000-4000-8000-000000000035';
      // One response every 6 hours: each starts a block of its own.
      const lines = Array.from({ length: 35 }, (_, i) => {
        const at = new Date(Date.UTC(2026, 10, 1) + i * 6 * 3_600_000).toISOString();
        const base = { sessionId: id, uuid: `a-${i}`, parentUuid: i === 0 ? null : `a-${i - 1}`, timestamp: at };
        return assistantText(base, `msg_${i}`, `answer ${i}`);
      });
      writeLines(join(dir, 'home', 'projects', '-home-user-blocks', `${id}.jsonl`), lines);
      const blocksIndex = openIndex({ dbPath: join(dir, 'index.sqlite') });
      try {
        await blocksIndex.refresh([join(dir, 'home')]);
        const blocksApp = createApp({
          index: blocksIndex,
          paths: [join(dir, 'home')],
          host: '127.0.0.1',
          port: 4317,
          assetsDir: dir,
        });
        const body = (await (await blocksApp.request('/api/usage', { headers: HOST })).json()) as UsageResponse;
        expect(body.blocksTotal).toBe(35);
        expect(body.blocks).toHaveLength(30);
        expect(body.blocks.at(-1)?.start).toBe(new Date(Date.UTC(2026, 10, 1) + 34 * 6 * 3_600_000).toISOString());
      } finally {
        blocksIndex.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /api/usage: the 5-hour blocks beside another agent', () => {
  // The usage fixture's Claude Code responses (21 Nov, 10:00–11:00 UTC) and a Codex home of 23 Nov.
  const codex = resolve(here, '../../core/test/fixtures/codex/0.169.0/codex-home');
  it('are Claude Code’s only; a report of another agent has none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdash-server-blocks-agents-'));
    const both = openIndex({ dbPath: join(dir, 'index.sqlite') });
    try {
      await both.refresh([home, codex]);
      const bothApp = createApp({ index: both, paths: [home, codex], host: '127.0.0.1', port: 4317, assetsDir: dir });
      const usage = async (query: string) =>
        (await (await bothApp.request(`/api/usage${query}`, { headers: HOST })).json()) as UsageResponse;
      const all = await usage('');
      // Before: the Codex responses made blocks of their own (gpt-5.5's, as if Claude Code's limits counted them).
      expect(all.agents.map((a) => a.agent).sort()).toEqual(['claude', 'codex']);
      expect(
        all.blocks.map((b) => [b.start, b.responses, Object.keys(b.models).some((m) => m.startsWith('gpt'))]),
      ).toEqual([['2026-11-21T10:00:00.000Z', 6, false]]);
      expect((await usage('?agent=codex')).blocks).toEqual([]);
    } finally {
      both.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
