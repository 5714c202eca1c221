/**
 * `team list`'s word on each device (real PostgreSQL, real HTTP): a laptop whose push found nothing new kept its
 * first push's time, reading stale however often it pushed; a machine that only sends its agents' telemetry read
 * "never pushed" after hundreds of OTLP requests. An accepted push now marks the device pushed, and an accepted OTLP
 * request marks it seen (its row written at most once a minute).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deviceState } from '../src/pg/device-seen.js';
import { addDevice, listTeam, revoke } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { SAMPLES } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

/** One OTLP/JSON log record of an agent's session, as an exporter sends it. */
const logs = JSON.stringify({
  resourceLogs: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
      scopeLogs: [
        {
          scope: { name: 'com.anthropic.claude_code.events' },
          logRecords: [
            {
              timeUnixNano: String(Date.parse('2026-01-01T00:00:00Z') * 1e6),
              body: { stringValue: 'claude_code.user_prompt' },
              attributes: [
                { key: 'event.name', value: { stringValue: 'user_prompt' } },
                { key: 'session.id', value: { stringValue: '11111111-2222-4333-8444-555555555555' } },
              ],
            },
          ],
        },
      ],
    },
  ],
});

pgSuite('team list: when each device last pushed, or was last seen (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;
  let otelToken: string;

  beforeAll(async () => {
    team = await startTeam();
    ({ token: otelToken } = await addDevice(team.db.sql, 'ann', 'otel-box'));
    dir = mkdtempSync(join(tmpdir(), 'agentdash-device-seen-'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([SAMPLES]);
  });
  afterAll(async () => {
    index?.close();
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const device = async (name: string) => {
    const listing = await listTeam(team.db.sql);
    const found = listing.people.flatMap((p) => p.devices).find((d) => d.name === name);
    if (!found) throw new Error(`no device ${name}`);
    return found;
  };
  const otlp = (token: string) =>
    fetch(`${team.url}/v1/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: logs,
    });

  it('a push that finds nothing new marks the device pushed all the same', async () => {
    expect(deviceState(await device('laptop'))).toBe('never pushed');
    const first = await team.pushIndex(index, { tier: 'summary' });
    expect(first.stored).toBe(first.sessions);
    // a day later, the laptop pushes again with nothing new
    await team.db.sql`update devices set last_push_at = now() - interval '1 day' where name = 'laptop'`;
    const before = await device('laptop');
    const again = await team.pushIndex(index, { tier: 'summary' });
    expect([again.stored, again.unchanged]).toEqual([0, again.sessions]);
    const after = await device('laptop');
    // before: the day-old time stayed, the laptop reading stale
    expect(Date.parse(after.lastPushAt ?? '')).toBeGreaterThan(Date.parse(before.lastPushAt ?? '') + 3_600_000);
    expect(after.lastSeenAt).toBe(after.lastPushAt);
    expect(deviceState(after)).toBe(`last push ${after.lastPushAt}`);
  });

  it('a device that only sends telemetry reads as seen, not as never pushed', async () => {
    expect(await device('otel-box')).toMatchObject({ lastPushAt: null, lastSeenAt: null, sessions: 0 });
    const sent = await otlp(otelToken);
    expect(sent.status).toBe(200);
    const seen = await device('otel-box');
    expect(seen.lastPushAt).toBeNull();
    expect(Date.now() - Date.parse(seen.lastSeenAt ?? '')).toBeLessThan(60_000);
    expect(deviceState(seen)).toBe(`telemetry only, last seen ${seen.lastSeenAt}`);
  });

  it("writes the device's row once a minute at most, whatever number of requests its exporter sends", async () => {
    await team.db.sql`update devices set last_seen_at = now() - interval '10 seconds' where name = 'otel-box'`;
    const marked = (await device('otel-box')).lastSeenAt;
    for (let i = 0; i < 5; i++) expect((await otlp(otelToken)).status).toBe(200);
    expect((await device('otel-box')).lastSeenAt).toBe(marked);
  });

  it('a revoked device reads revoked, whatever it did before', async () => {
    await revoke(team.db.sql, 'ann/otel-box');
    expect(deviceState(await device('otel-box'))).toBe('revoked');
    expect((await otlp(otelToken)).status).toBe(401);
  });
});
