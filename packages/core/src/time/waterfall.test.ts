import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSampleSession, loadSessions, samplesHome } from '../../test/helpers.js';
import { timestampMs } from '../model/ids.js';
import { IDLE_THRESHOLD_MS } from './partition.js';
import { waterfallOf } from './waterfall.js';

describe('waterfallOf', () => {
  it('one lane per thread; every timed call is a bar from its call to its result', async () => {
    const session = await loadSampleSession('-home-user-proj-subagents', '410c10d6-fdc3-4c91-bc4f-74b883942e01');
    const w = waterfallOf(session);
    expect(w.lanes.map((l) => l.key)).toEqual([
      'main',
      ...[...session.subagents]
        .sort((a, b) => (timestampMs(a.startedAt) ?? 0) - (timestampMs(b.startedAt) ?? 0))
        .map((s) => s.key),
    ]);
    const bars = w.lanes.flatMap((l) => l.calls);
    expect(bars.map((b) => b.id).sort()).toEqual(
      session.calls
        .filter((c) => c.timestamp !== undefined)
        .map((c) => c.id as string)
        .sort(),
    );
    for (const call of session.calls) {
      const bar = bars.find((b) => b.id === call.id);
      const result = timestampMs(call.result?.timestamp);
      if (!bar || result === undefined) continue;
      expect([bar.startMs, bar.endMs]).toEqual([timestampMs(call.timestamp), result]);
    }
    // A subagent's lane sits inside the call that started it.
    for (const lane of w.lanes.slice(1)) {
      const parent = bars.find((b) => b.id === lane.parentCallId);
      if (!parent) continue;
      expect(lane.startMs).toBeGreaterThanOrEqual(parent.startMs - 1000);
    }
  });

  it('marks a subagent lane that ran on past the call that started it as a background one, and no other', async () => {
    // 2.1.330's subagents scenario: one agent started in the background (its call answered in 48 ms, the agent ran
    // 3.6 s), the others waited for
    const session = await loadSampleSession('-home-user-proj-subagents', '410c10d6-fdc3-4c91-bc4f-74b883942e01');
    const w = waterfallOf(session);
    const bars = w.lanes.flatMap((l) => l.calls);
    const subs = w.lanes.slice(1).filter((l) => bars.some((b) => b.id === l.parentCallId));
    const past = subs.filter((l) => l.endMs > (bars.find((b) => b.id === l.parentCallId)?.endMs ?? 0));
    expect(subs.filter((l) => l.background).map((l) => l.key)).toEqual(past.map((l) => l.key));
    expect(past.map((l) => l.key)).toContain('a6f077947b965e76e');
    expect(past.length).toBeLessThan(subs.length);
  });

  it("names each subagent lane by its call's description and its type, so same-type lanes read apart", async () => {
    // Four general-purpose subagents: by type alone their lanes all read "general-purpose".
    const session = await loadSampleSession('-home-user-proj-subagents', '410c10d6-fdc3-4c91-bc4f-74b883942e01');
    const labels = waterfallOf(session)
      .lanes.slice(1)
      .map((l) => l.label);
    expect(labels).toEqual([
      'Inspect data file · general-purpose',
      'First parallel job · general-purpose',
      'Second parallel job · general-purpose',
      'Background job · general-purpose',
    ]);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('marks the expected errors apart from the errors, as the header counts them', async () => {
    const session = await loadSampleSession('-home-user-proj-shell', '5546c9dc-f77a-4128-bec8-c0c6a466b9a7');
    const bars = waterfallOf(session).lanes.flatMap((l) => l.calls);
    const failed = bars.filter((b) => b.status === 'error');
    const expected = session.calls.filter((c) => c.status === 'error' && c.result?.error?.severity === 'expected');
    expect(expected.length).toBeGreaterThan(0);
    expect(
      failed
        .filter((b) => b.expected === true)
        .map((b) => b.id)
        .sort(),
    ).toEqual(expected.map((c) => c.id as string).sort());
    expect(failed.length).toBeGreaterThan(expected.length);
  });

  it.each([
    ['-home-user-proj-files', '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc'],
    // Retried requests, a synthetic API error, and a response whose last block is text after thinking.
    ['-home-user-proj-api', 'd875b8f0-9955-43c3-8438-5b8227651ab9'],
  ])('a 2.1.x response waits from the api-request record it names to its last block (%s)', async (project, id) => {
    const session = await loadSampleSession(project, id);
    const sent = new Map<string, number>();
    for (const e of session.events) {
      if (e.kind !== 'side' || e.record.kind !== 'api-request' || e.record.id === undefined) continue;
      const t = timestampMs(e.record.timestamp);
      if (t !== undefined) sent.set(e.record.id, t);
    }
    // Each response's last block record, read from the transcript itself.
    const lastBlock = new Map<string, number>();
    for (const line of readFileSync(session.files[0]?.path ?? '', 'utf8').split('\n')) {
      if (!line.includes('"type":"assistant"')) continue;
      const r = JSON.parse(line) as { timestamp: string; isSidechain?: boolean; message: { id: string } };
      const t = Date.parse(r.timestamp);
      if (!r.isSidechain) lastBlock.set(r.message.id, Math.max(lastBlock.get(r.message.id) ?? t, t));
    }
    const main = waterfallOf(session).lanes[0];
    const responses = session.events.filter((e) => e.kind === 'assistant' && !e.isSynthetic);
    expect(responses.length).toBeGreaterThan(1);
    expect(main?.model).toHaveLength(responses.length);
    for (const e of responses) {
      if (e.kind !== 'assistant') continue;
      const startMs = sent.get(e.requestRef ?? '');
      expect(startMs).toBeDefined();
      expect(main?.model).toContainEqual({ startMs, endMs: lastBlock.get(e.messageId) });
    }
  });

  it('spans lie inside the session and never run backwards, over every sample session', async () => {
    for (const session of await loadSessions(samplesHome)) {
      const w = waterfallOf(session);
      for (const lane of w.lanes) {
        for (const i of [...lane.calls, ...lane.model, ...lane.user]) {
          expect(i.endMs).toBeGreaterThanOrEqual(i.startMs);
          expect(i.startMs).toBeGreaterThanOrEqual(w.startMs);
          expect(i.endMs).toBeLessThanOrEqual(w.endMs);
        }
      }
    }
  });

  it('draws a wait for the person longer than the idle threshold as idle, as the time partition counts it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-waterfall-idle-'));
    try {
      const id = '3f1c2a4e-0000-4000-8000-00000000001d';
      const at = (minutes: number) => new Date(Date.UTC(2026, 10, 2, 9, 0) + minutes * 60_000).toISOString();
      const base = { sessionId: id, cwd: '/home/user/proj/idle', version: '2.1.330', isSidechain: false };
      const prompt = (n: number, minutes: number, parent: string | null) => ({
        ...base,
        type: 'user',
        uuid: `u${n}`,
        parentUuid: parent,
        timestamp: at(minutes),
        message: { role: 'user', content: `question ${n}` },
      });
      const answer = (n: number, minutes: number) => ({
        ...base,
        type: 'assistant',
        uuid: `a${n}`,
        parentUuid: `u${n}`,
        timestamp: at(minutes),
        message: {
          id: `msg_${n}`,
          role: 'assistant',
          model: 'claude-opus-4-5',
          content: [{ type: 'text', text: `answer ${n}` }],
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      });
      // answered; back 40 minutes later (idle); answered; back 2 minutes later (waiting for you)
      const lines = [prompt(1, 0, null), answer(1, 0.5), prompt(2, 40.5, 'a1'), answer(2, 41), prompt(3, 43, 'a2')];
      mkdirSync(join(dir, 'projects', '-home-user-proj-idle'), { recursive: true });
      const file = join(dir, 'projects', '-home-user-proj-idle', `${id}.jsonl`);
      writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      const [session] = await loadSessions(dir);
      if (!session) throw new Error('no session');
      const [main] = waterfallOf(session).lanes;
      const minutes = (list: readonly { startMs: number; endMs: number }[] | undefined) =>
        (list ?? []).map((i) => (i.endMs - i.startMs) / 60_000);
      expect(minutes(main?.idle)).toEqual([40]);
      expect(minutes(main?.user)).toEqual([2]);
      expect(40 * 60_000).toBeGreaterThan(IDLE_THRESHOLD_MS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('carries the time no record covers: what its calls, model turns and waits leave of a lane, a second or more', async () => {
    let seen = 0;
    for (const session of await loadSessions(samplesHome)) {
      for (const lane of waterfallOf(session).lanes) {
        // the lane's time less every band and closed bar it draws, read here from the lane alone
        const covered = [...lane.calls.filter((c) => !c.open), ...lane.model, ...lane.user, ...lane.idle]
          .map((i) => [Math.max(i.startMs, lane.startMs), Math.min(i.endMs, lane.endMs)] as const)
          .filter(([a, b]) => b > a)
          .sort((a, b) => a[0] - b[0]);
        const gaps: [number, number][] = [];
        let at = lane.startMs;
        for (const [a, b] of covered) {
          if (a > at) gaps.push([at, a]);
          at = Math.max(at, b);
        }
        if (lane.endMs > at) gaps.push([at, lane.endMs]);
        const expected = gaps.filter(([a, b]) => b - a >= 1000);
        expect([session.id, lane.key, lane.unrecorded.map((u) => [u.startMs, u.endMs])]).toEqual([
          session.id,
          lane.key,
          expected,
        ]);
        seen += expected.length;
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
