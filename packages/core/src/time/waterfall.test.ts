import { describe, expect, it } from 'vitest';
import { loadSampleSession, loadSessions, samplesHome } from '../../test/helpers.js';
import { timestampMs } from '../model/ids.js';
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
});
