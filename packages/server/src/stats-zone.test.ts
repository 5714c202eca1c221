/**
 * Analytics' days and weeks are the browser's calendar (`GET /api/stats?tz=`), over a real index: a call late in the
 * evening in California is that evening's, not the next UTC day's, across a daylight-saving change and at a
 * quarter-hour offset (Kathmandu, +05:45).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { StatsResponse } from './api-types.js';
import { createApp } from './app.js';

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;

/** One session per list of call times (ISO, UTC): a Bash call at each, its result a second later. */
function writeSessions(home: string, project: string, sessions: readonly (readonly string[])[]): void {
  sessions.forEach((times, s) => {
    const sessionId = `5e55${String(s).padStart(4, '0')}-0000-4000-8000-${project.length.toString().padStart(12, '0')}`;
    const lines = times.flatMap((time, i) => {
      const at = Date.parse(time);
      const base = (uuid: string, ms: number) => ({
        sessionId,
        uuid: `${sessionId}-${uuid}`,
        parentUuid: null,
        timestamp: new Date(ms).toISOString(),
      });
      return [
        // Ids of their own: a call id met in two sessions is one call (a resumed session's copy).
        toolUse(base(`u${i}`, at), `msg_${project}_${s}_${i}`, `toolu_${project}_${s}_${i}`, 'Bash', {
          command: 'true',
        }),
        toolResult(base(`r${i}`, at + 1000), `toolu_${project}_${s}_${i}`, 'ok', false),
      ];
    });
    writeLines(join(home, 'projects', project, `${sessionId}.jsonl`), lines);
  });
}

const stats = async (query: string, server = app): Promise<StatsResponse> => {
  const res = await server.request(`/api/stats${query}`, { headers: { host: '127.0.0.1:4317' } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as StatsResponse;
};

/** Three sessions' call times. */
const DAYS = [
  // 22:30 on Saturday 7 March in California (PST); US daylight saving starts on the 8th at 02:00.
  ['2026-03-08T06:30:00Z'],
  // 23:30 on the 8th in California (PDT, UTC-7); 23:59:59 on the 8th in Kathmandu (+05:45), then its 9th.
  ['2026-03-09T06:30:00Z', '2026-03-08T18:14:59Z', '2026-03-08T18:15:00Z'],
  // A week later: the span is over 4 days, so the chart has days.
  ['2026-03-15T12:00:00Z'],
];

const days = (body: StatsResponse) => body.days.map((d) => [d.day, d.calls]);

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-stats-zone-'));
  const home = join(tmp, 'home');
  writeSessions(home, '-tmp-days', DAYS);
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([home]);
  app = createApp({ index, paths: [home], host: '127.0.0.1', port: 4317 });
});

afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('GET /api/stats?tz', () => {
  it('counts days of the asked time zone', async () => {
    const utc = await stats('?tz=UTC');
    expect(utc.granularity).toBe('day');
    expect(days(utc)).toEqual([
      ['2026-03-08', 3],
      ['2026-03-09', 1],
      ['2026-03-15', 1],
    ]);
    expect(days(await stats('?tz=America%2FLos_Angeles'))).toEqual([
      ['2026-03-07', 1],
      ['2026-03-08', 3],
      ['2026-03-15', 1],
    ]);
    expect(days(await stats('?tz=Asia%2FKathmandu'))).toEqual([
      ['2026-03-08', 2],
      ['2026-03-09', 2],
      ['2026-03-15', 1],
    ]);
  });

  it("counts the server's days without a zone, and refuses a zone that is not one", async () => {
    // The tests run with TZ=UTC.
    expect(days(await stats(''))).toEqual(days(await stats('?tz=UTC')));
    const res = await app.request('/api/stats?tz=Mars%2FOlympus', { headers: { host: '127.0.0.1:4317' } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('tz must be an IANA time zone name');
  });

  it("counts weeks from the zone's Mondays when the calls span more than a year", async () => {
    // A home of its own (the tests above keep theirs), with a call a year before the others: Monday 10 March 2025
    // at 05:00 UTC, still Sunday the 9th in California.
    const home = join(tmp, 'weeks');
    writeSessions(home, '-tmp-days', DAYS);
    writeSessions(home, '-tmp-weeks', [['2025-03-10T05:00:00Z']]);
    const weeks = openIndex({ dbPath: join(tmp, 'weeks.sqlite') });
    onTestFinished(() => weeks.close());
    await weeks.refresh([home]);
    const server = createApp({ index: weeks, paths: [home], host: '127.0.0.1', port: 4317 });
    const utc = await stats('?tz=UTC', server);
    expect(utc.granularity).toBe('week');
    expect(days(utc)).toEqual([
      ['2025-03-10', 1],
      // 2026-03-08 is a Sunday: its week began on Monday the 2nd; the 9th and 15th are the next week's.
      ['2026-03-02', 3],
      ['2026-03-09', 2],
    ]);
    expect(days(await stats('?tz=America%2FLos_Angeles', server))).toEqual([
      ['2025-03-03', 1],
      ['2026-03-02', 4],
      ['2026-03-09', 1],
    ]);
  });
});
