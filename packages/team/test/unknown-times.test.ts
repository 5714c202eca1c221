/**
 * Unknown times on the team server (real PostgreSQL, real HTTP) are unknown, never 0 (1970), as on the laptop:
 * telemetry-only sessions whose records carry no time, or only some (an exporter that leaves OpenTelemetry's times
 * out), are dated by their dated records and listed as the laptop lists them, one with none last.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndex } from '@agentdash/index';
import type { TelemetrySessionsResponse } from '@agentdash/server';
import {
  decodeRecorded,
  PROBE_SESSION,
  SHELL_SESSION,
  UNDATED_SESSION,
  undatedExport,
} from '@agentdash/testing/otel-recordings';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';

pgSuite('unknown times on the team server', () => {
  let team: TeamFixture;
  let dir: string;
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-team-unknown-times-'));
  });
  afterAll(async () => {
    await team?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("telemetry-only sessions: first time of their dated records, none last, in the laptop's order", async () => {
    const { requests, shellFirstMs, shellLastMs } = undatedExport();
    const index = openIndex({ dbPath: join(dir, 'otel.sqlite') });
    try {
      for (const r of requests) {
        index.telemetry.store(decodeRecorded(r));
        const response = await fetch(`${team.url}${r.path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${team.token}`, 'content-type': r.contentType },
          body: new Uint8Array(r.body),
        });
        await response.arrayBuffer();
        expect(response.status).toBe(200);
      }
      const listed = (await team.request('GET', '/api/telemetry/sessions'))
        .json as unknown as TelemetrySessionsResponse;
      const spans = (list: TelemetrySessionsResponse['sessions']) =>
        list.map((s) => [s.sessionId, s.firstMs, s.lastMs]);
      expect(spans(listed.sessions)).toEqual([
        [SHELL_SESSION, shellFirstMs, shellLastMs],
        [PROBE_SESSION, expect.any(Number), expect.any(Number)],
        [UNDATED_SESSION, null, null],
      ]);
      expect(spans(listed.sessions)).toEqual(spans(index.telemetry.telemetryOnlySessions()));
    } finally {
      index.close();
    }
  });
});
