/**
 * `GET /api/sessions/:id/calls`: a session's calls as the index holds them, first first (what a team server shows of
 * a session shared below the full tier, whose timeline it does not hold).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../../test/app-harness.js';
import type { CallsResponse, SessionDetail, SessionsResponse } from '../api-types.js';

let t: TestApp;
let sessions: SessionsResponse['sessions'];
beforeAll(async () => {
  t = await appOver([SAMPLES]);
  sessions = (await t.json<SessionsResponse>('/api/sessions?limit=1000')).sessions;
});
afterAll(() => t.close());

describe('a session’s calls', () => {
  it('are every call the session made (subagents’ too), in time order, each once', async () => {
    const called = sessions.filter((s) => s.toolCalls > 0);
    expect(called.length).toBeGreaterThan(10);
    for (const s of called) {
      const { calls } = await t.json<CallsResponse>(`/api/sessions/${encodeURIComponent(s.id)}/calls`);
      // the list's own count of the session's calls
      expect(calls.length, s.id).toBe(s.toolCalls);
      expect(new Set(calls.map((c) => c.callId)).size, s.id).toBe(calls.length);
      expect(new Set(calls.map((c) => c.sessionId)), s.id).toEqual(new Set([s.id]));
      const times = calls.map((c) => (c.timestamp === null ? 0 : Date.parse(c.timestamp)));
      expect(times, s.id).toEqual([...times].sort((a, b) => a - b));
    }
  });

  it("say which subagent made each: as many of each subagent's calls as the header counts", async () => {
    let checked = 0;
    for (const s of sessions.filter((x) => x.toolCalls > 0)) {
      const header = await t.json<SessionDetail>(`/api/sessions/${encodeURIComponent(s.id)}`);
      const { calls } = await t.json<CallsResponse>(`/api/sessions/${encodeURIComponent(s.id)}/calls`);
      const made = new Map<string | null, number>();
      for (const c of calls) made.set(c.agentId, (made.get(c.agentId) ?? 0) + 1);
      for (const sub of header.subagents) {
        if (sub.agentId === null) continue;
        expect(made.get(sub.agentId) ?? 0, `${s.id} ${sub.agentId}`).toBe(sub.toolCalls);
        if (sub.toolCalls > 0) checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('the first ones when a limit cuts them; the same ones the drill-down lists of that session', async () => {
    const big = [...sessions].sort((a, b) => b.toolCalls - a.toolCalls)[0]!;
    expect(big.toolCalls).toBeGreaterThan(5);
    const ref = encodeURIComponent(big.id);
    const all = (await t.json<CallsResponse>(`/api/sessions/${ref}/calls`)).calls;
    const first = (await t.json<CallsResponse>(`/api/sessions/${ref}/calls?limit=5`)).calls;
    expect(first).toEqual(all.slice(0, 5));
    // a limit of 0 is the least one, not "no limit" (the index's reading of 0): every maximum holds
    expect((await t.json<CallsResponse>(`/api/sessions/${ref}/calls?limit=0`)).calls).toEqual(all.slice(0, 1));
    expect((await t.json<CallsResponse>('/api/calls?limit=0')).calls).toHaveLength(1);
    const drill = (await t.json<CallsResponse>('/api/calls?limit=2000')).calls.filter((c) => c.sessionId === big.id);
    expect(new Set(drill.map((c) => c.callId))).toEqual(new Set(all.map((c) => c.callId)));
  });

  it('of a session not served: 404', async () => {
    const res = await t.app.request('/api/sessions/no-such-session/calls', { headers: { host: '127.0.0.1:4317' } });
    expect(res.status).toBe(404);
  });
});
