/**
 * Unknown times on the team server (real PostgreSQL, real HTTP) are unknown, never 0 (1970), as on the laptop:
 * - telemetry-only sessions whose records carry no time, or only some (an exporter that leaves OpenTelemetry's times
 *   out), are dated by their dated records and listed as the laptop lists them, one with none last;
 * - a session whose wall time is unknown (its records give no span) is pushed with `time.wallMs` null and read back
 *   so; one an older laptop (payload 6) pushed with 0 for it reads back null too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openIndex } from '@agentdash/index';
import type { SessionDetail, SessionsResponse, TelemetrySessionsResponse } from '@agentdash/server';
import {
  decodeRecorded,
  PROBE_SESSION,
  SHELL_SESSION,
  UNDATED_SESSION,
  undatedExport,
} from '@agentdash/testing/otel-recordings';
import { repoRoot } from '@agentdash/testing/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SummarySession } from '../src/contract.js';
import { sessionUid } from '../src/push/hash.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { seal, sessionsBody, summarySession, uidOf } from './wire.js';

/** Codex rollouts: 84b6da18 (August 2025) stamps only its header, so its records give no span. */
const codexTurns = resolve(repoRoot, 'packages/core/test/fixtures/codex/turns');

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

  it('a session whose wall time is unknown is pushed and read back with wallMs null', async () => {
    const index = openIndex({ dbPath: join(dir, 'codex.sqlite') });
    try {
      await index.refresh([codexTurns]);
      const report = await team.pushIndex(index, { tier: 'summary' });
      expect([report.sessions, report.stored, report.skipped]).toEqual([3, 3, []]);
      const [{ salt } = { salt: '' }] = await team.db.sql<
        { salt: string }[]
      >`select salt from people where name = 'ann'`;
      const local = index.listSessions();
      const unknown = local.find((s) => s.id.startsWith('84b6da18'));
      expect(unknown?.time.wallMs).toBeNull();
      const listed = (await team.request('GET', '/api/sessions')).json as unknown as SessionsResponse;
      for (const s of local) {
        const uid = sessionUid(salt, s.agent, s.key);
        const row = listed.sessions.find((r) => r.id === uid);
        // the laptop's figure, null where unknown: 84b6da18's, 0 before
        expect([s.id, row?.durationMs, row?.time?.wallMs]).toEqual([s.id, s.durationMs ?? null, s.time.wallMs]);
      }
      const uid = unknown ? sessionUid(salt, unknown.agent, unknown.key) : '';
      const [stored] = await team.db.sql<{ wall: string }[]>`
        select jsonb_typeof(body->'time'->'wallMs') as wall from sessions where uid = ${uid}`;
      expect(stored?.wall).toBe('null');
    } finally {
      index.close();
    }
  });

  it("an older laptop's 0 for an unknown wall time reads back null", async () => {
    const { digest: _digest, ...known } = summarySession(71);
    const old = seal<SummarySession>({
      ...known,
      durationMs: null,
      time: { wallMs: 0, modelMs: 0, toolMs: 0, userMs: 0, idleMs: 0 },
    });
    const pushed = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([old], 6));
    expect(pushed.status).toBe(200);
    const detail = (await team.request('GET', `/api/sessions/${uidOf(71)}`)).json as unknown as SessionDetail;
    expect([detail.session.durationMs, detail.session.time?.wallMs]).toEqual([null, null]);
    const usage = (await team.request('GET', '/api/usage')).json as unknown as {
      time: { byProject: { wallMs: number }[] };
    };
    expect(usage.time.byProject.every((p) => p.wallMs > 0)).toBe(true);
  });
});
