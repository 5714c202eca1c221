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
