import type { AgentIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { TeamClient } from '../src/push/client.js';
import { createIngestGate } from '../src/server/ingest-gate.js';
import { pgSuite } from './pg-harness.js';
import { type PlantedIndex, plantedIndex } from './planted-home.js';
import { startTeam, type TeamFixture } from './team-harness.js';

describe('the ingest gate', () => {
  it('lets `slots` in at once and the rest in the order they came, as slots are given back', async () => {
    const gate = createIngestGate({ slots: 2, maxWaitMs: 10_000 });
    const a = await gate.enter();
    const b = await gate.enter();
    const order: string[] = [];
    const c = gate.enter().then((leave) => {
      order.push('c');
      return leave;
    });
    const d = gate.enter().then((leave) => {
      order.push('d');
      return leave;
    });
    expect(gate.load()).toEqual({ active: 2, waiting: 2 });
    a?.();
    a?.(); // a second call gives nothing back twice
    const leaveC = await c;
    expect(order).toEqual(['c']);
    expect(gate.load()).toEqual({ active: 2, waiting: 1 });
    b?.();
    const leaveD = await d;
    expect(order).toEqual(['c', 'd']);
    leaveC?.();
    leaveD?.();
    expect(gate.load()).toEqual({ active: 0, waiting: 0 });
  });

  it('answers undefined to a request that waited longer than maxWaitMs, and forgets it', async () => {
    const gate = createIngestGate({ slots: 1, maxWaitMs: 20 });
    const held = await gate.enter();
    expect(await gate.enter()).toBeUndefined();
    expect(gate.load()).toEqual({ active: 1, waiting: 0 });
    held?.();
    expect(typeof (await gate.enter())).toBe('function');
  });
});

/** A fetch that answers from `answers` in turn (a Response made anew, or an error to throw), counting its calls. */
function scripted(answers: readonly (() => Response | Error)[]): typeof fetch & { calls: number } {
  let at = 0;
  const fake = Object.assign(
    async (): Promise<Response> => {
      fake.calls += 1;
      const next = (answers[Math.min(at++, answers.length - 1)] as () => Response | Error)();
      if (next instanceof Error) throw next;
      return next;
    },
    { calls: 0 },
  );
  return fake as typeof fake & typeof fetch;
}

const whoami = { version: TEAM_PAYLOAD_VERSION, role: 'device', person: 'ann', device: 'laptop', salt: 'a'.repeat(64) };
const okAnswer = () => new Response(JSON.stringify({ success: true, data: whoami }), { status: 200 });
const busy = () =>
  new Response(JSON.stringify({ success: false, error: 'busy storing', code: 'TEAM_BUSY' }), {
    status: 503,
    headers: { 'retry-after': '0' },
  });
const timedOut = () => new TypeError('fetch failed', { cause: { code: 'UND_ERR_HEADERS_TIMEOUT' } });

describe('the team client with a busy server', () => {
  it('sends again after a 503, a 502/504 or a header timeout, and counts it', async () => {
    const fake = scripted([
      busy,
      () => new Response('bad gateway', { status: 502 }),
      timedOut,
      () => new Response('', { status: 504 }),
      okAnswer,
    ]);
    const client = new TeamClient({ url: 'http://team.test', token: 't', fetch: fake, retryMs: 0 });
    expect(await client.whoami()).toMatchObject({ person: 'ann' });
    expect(fake.calls).toBe(5);
    expect(client.retried).toBe(4);
    expect(client.requests).toBe(1);
  });

  it("says why each request was put off, in the server's words: a database it cannot reach is no busy server", async () => {
    const dbDown = () =>
      new Response(
        JSON.stringify({
          success: false,
          error: 'the team server cannot reach its database',
          code: 'TEAM_DB_UNREACHABLE',
        }),
        { status: 503, headers: { 'retry-after': '0' } },
      );
    const fake = scripted([
      dbDown,
      dbDown,
      busy,
      () => new Response('bad gateway', { status: 502 }),
      timedOut,
      okAnswer,
    ]);
    const said: string[] = [];
    const client = new TeamClient({
      url: 'http://team.test',
      token: 't',
      fetch: fake,
      retryMs: 0,
      onLater: (why) => said.push(why),
    });
    expect(await client.whoami()).toMatchObject({ person: 'ann' });
    expect(said).toEqual([
      'the team server cannot reach its database',
      'the team server cannot reach its database',
      'the team server is busy (busy storing)',
      'a proxy in front of the team server answered 502',
      'the team server is slow to answer',
    ]);
    expect(client.lastLater).toBe('the team server is slow to answer');
  });

  it("gives up with the server's own words once the waiting budget is spent", async () => {
    const fake = scripted([busy]);
    const client = new TeamClient({ url: 'http://team.test', token: 't', fetch: fake, retryMs: 0, busyBudgetMs: 0 });
    await expect(client.whoami()).rejects.toThrow(/answered 503 to GET \/whoami: busy storing/);
    expect(fake.calls).toBe(1);
  });

  it('still stops at once on a 500 (a fault, not a busy server)', async () => {
    const fake = scripted([
      () => new Response(JSON.stringify({ success: false, error: 'internal error' }), { status: 500 }),
    ]);
    const client = new TeamClient({ url: 'http://team.test', token: 't', fetch: fake, retryMs: 0 });
    await expect(client.whoami()).rejects.toThrow(/answered 500/);
    expect(fake.calls).toBe(1);
  });
});

pgSuite('a push through a busy team server (real PostgreSQL, real HTTP)', () => {
  const gate = createIngestGate({ slots: 1, maxWaitMs: 10, retryAfterSeconds: 1 });
  let team: TeamFixture;
  let laptop: PlantedIndex;
  let index: AgentIndex;

  beforeAll(async () => {
    team = await startTeam({ ingest: gate });
    laptop = await plantedIndex('agentdash-push-busy-');
    index = laptop.index;
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
  });

  it('answers 503 with Retry-After before reading a body while the gate is shut', async () => {
    const held = await gate.enter();
    try {
      const answer = await team.request('POST', '/api/team/v1/push/sessions', {
        version: TEAM_PAYLOAD_VERSION,
        sessions: [],
      });
      expect(answer.status).toBe(503);
      expect(answer.json).toMatchObject({ success: false, code: 'TEAM_BUSY' });
      expect(answer.json.error).toMatch(/busy storing other pushes: send again in 1 s/);
    } finally {
      held?.();
    }
    // the same request with the gate open is stored (an empty batch: nothing to store)
    expect(
      (await team.request('POST', '/api/team/v1/push/sessions', { version: TEAM_PAYLOAD_VERSION, sessions: [] }))
        .status,
    ).toBe(200);
  });

  it('a full push put off by a shut gate ends as an unhindered push does', async () => {
    const held = await gate.enter();
    const opened = new Promise<void>((resolve) =>
      setTimeout(() => {
        held?.();
        resolve();
      }, 1_500),
    );
    const report = await team.pushIndex(index);
    await opened;
    expect(report.retried).toBeGreaterThan(0);
    expect(report).toMatchObject({ sessions: 1, stored: 1, chunks: 1, chunksUploaded: 1 });
    const [row] = await team.db.sql<{ tier: string }[]>`select tier from sessions`;
    expect(row?.tier).toBe('full');
    expect(await team.db.sql`select sha256 from chunks`).toHaveLength(1);
    expect(await team.listDrift()).toEqual([]);
    expect(await team.sumsDrift()).toEqual([]);
    expect(gate.load()).toEqual({ active: 0, waiting: 0 });
  });
});
