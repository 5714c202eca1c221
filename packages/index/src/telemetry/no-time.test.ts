/**
 * Telemetry-only sessions whose records carry no time, or only some of them do (an exporter that leaves
 * OpenTelemetry's times out): a record without one is no time, not 1970. A session's first and last times are those
 * of its dated records (null when none is dated), and the list, newest first, puts a session by its first dated
 * record and one with none last. Before, the list ordered by the first of all times: a session with one undated
 * record sorted as begun in 1970, below one that began earlier.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventFacts } from '@agentdash/core';
import {
  decodeRecorded,
  PROBE_SESSION,
  SHELL_SESSION,
  UNDATED_SESSION,
  undatedExport,
} from '@agentdash/testing/otel-recordings';
import { afterEach, expect, it } from 'vitest';
import { openIndex } from '../index.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('dates a session by its dated records and lists one without any last', () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-otel-no-time-'));
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  try {
    const { requests, shellFirstMs, shellLastMs } = undatedExport();
    for (const r of requests) index.telemetry.store(decodeRecorded(r));
    const only = index.telemetry.telemetryOnlySessions();
    expect(only.map((s) => [s.sessionId, s.firstMs, s.lastMs])).toEqual([
      [SHELL_SESSION, shellFirstMs, shellLastMs],
      [PROBE_SESSION, expect.any(Number), expect.any(Number)],
      [UNDATED_SESSION, null, null],
    ]);
    const probe = only[1]?.firstMs ?? Number.NaN;
    expect(probe).toBeGreaterThan(0);
    expect(probe).toBeLessThan(shellFirstMs);
    expect(index.telemetry.telemetrySessionIds()).toEqual([SHELL_SESSION, PROBE_SESSION, UNDATED_SESSION]);
  } finally {
    index.close();
  }
});

it("puts a session's undated steps after the dated ones that arrived before them, in arrival order", () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-otel-no-time-'));
  // each export request stored at a time of its own (its arrival)
  let tick = 1_000;
  const index = openIndex({ dbPath: join(dir, 'index.sqlite'), now: () => tick++ });
  try {
    const { requests } = undatedExport();
    /** The request each event arrived in, by what a step names of it. */
    const arrival = new Map<string, number>();
    const keyOf = (name: string, id: string, promptId: string) => `${name}|${id}|${promptId}`;
    requests.forEach((r, i) => {
      const records = decodeRecorded(r);
      index.telemetry.store(records);
      for (const record of records) {
        if (record.kind !== 'event') continue;
        const f = eventFacts(record);
        const key = keyOf(f.name, f.name === 'tool_result' ? f.toolUseId : f.requestId, f.promptId);
        if (!arrival.has(key)) arrival.set(key, i);
      }
    });
    const NAME = { prompt: 'user_prompt', request: 'api_request', error: 'api_error', tool: 'tool_result' } as const;
    const steps = index.telemetry.timeline(SHELL_SESSION).map((s) => ({
      dated: s.timeMs > 0,
      timeMs: s.timeMs,
      arrived: arrival.get(keyOf(NAME[s.kind], s.id, s.promptId)) ?? Number.NaN,
    }));
    const undated = steps.filter((s) => !s.dated);
    expect([undated.length > 0, steps.length - undated.length > 0]).toEqual([true, true]);
    for (const [i, step] of steps.entries()) {
      for (const later of steps.slice(i + 1)) {
        // a dated step after an undated one arrived after it; undated steps keep their order of arrival
        if (!step.dated && later.dated) expect(later.arrived).toBeGreaterThan(step.arrived);
        if (!step.dated && !later.dated) expect(later.arrived).toBeGreaterThanOrEqual(step.arrived);
        if (step.dated && later.dated) expect(later.timeMs).toBeGreaterThanOrEqual(step.timeMs);
      }
    }
  } finally {
    index.close();
  }
});
