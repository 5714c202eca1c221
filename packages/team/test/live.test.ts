/**
 * Live updates on the team server: a dashboard subscribed to `/api/events` (real HTTP, real PostgreSQL) hears of a
 * push as a laptop's dashboard hears of a changed file, and so does a second team server on the same database; and
 * of telemetry a device sends to the team port, as a laptop's dashboard hears of its receiver's exports.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { openTeamDb, type TeamDb } from '../src/pg/db.js';
import { addViewer } from '../src/pg/people.js';
import { createTeamLiveEvents, type TeamLiveEvents } from '../src/server/team-live.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession, sessionsBody, uidOf } from './wire.js';

interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/** An open `/api/events` stream, read one event at a time. */
async function openStream(url: string, token: string) {
  const abort = new AbortController();
  const res = await fetch(`${url}/api/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const next = async (): Promise<SseEvent> => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const field = (name: string) =>
          block
            .split('\n')
            .find((l) => l.startsWith(`${name}:`))
            ?.slice(name.length + 1)
            .trim() ?? '';
        return { event: field('event'), data: field('data') };
      }
      const { done, value } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffered += value;
    }
  };
  /** The next event other than a keep-alive ping. */
  const nextChange = async (): Promise<SseEvent> => {
    for (;;) {
      const e = await next();
      if (e.event !== 'ping') return e;
    }
  };
  /** The events up to the next `sessions-changed`: the sessions named, sorted. */
  const nextAnnounced = async (): Promise<string[]> => {
    const named: string[] = [];
    for (let e = await nextChange(); e.event !== 'sessions-changed'; e = await nextChange()) {
      named.push(e.event === 'session-updated' ? (JSON.parse(e.data) as { sessionId: string }).sessionId : e.event);
    }
    return named.sort();
  };
  return { nextChange, nextAnnounced, close: () => abort.abort() };
}

/** One OTLP/JSON logs export: a `tool_result` event of the telemetry session `sessionId`. */
const toolResultExport = (sessionId: string, toolUseId: string) =>
  JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
        scopeLogs: [
          {
            scope: { name: 'com.anthropic.claude_code.events' },
            logRecords: [
              {
                timeUnixNano: `${BigInt(Date.UTC(2026, 2, 2, 10, 0, 5)) * 1_000_000n}`,
                body: { stringValue: 'claude_code.tool_result' },
                attributes: [
                  ['event.name', 'tool_result'],
                  ['session.id', sessionId],
                  ['tool_name', 'Bash'],
                  ['tool_use_id', toolUseId],
                  ['success', 'true'],
                  ['duration_ms', '120'],
                ].map(([key, value]) => ({ key, value: { stringValue: value } })),
              },
            ],
          },
        ],
      },
    ],
  });

pgSuite('team live updates (real PostgreSQL, real HTTP, SSE)', () => {
  let team: TeamFixture;
  let viewer: string;
  let otherDb: TeamDb;
  let other: TeamLiveEvents;

  beforeAll(async () => {
    team = await startTeam();
    viewer = (await addViewer(team.db.sql, 'lead')).token;
    // a second team server's events, on its own pool: pushes through one server reach the other's dashboards
    otherDb = await openTeamDb({ url: team.pg.url, max: 2 });
    other = createTeamLiveEvents(otherDb.sql);
    await other.ready;
  });
  afterAll(async () => {
    other?.close();
    await otherDb?.close();
    await team?.close();
  });

  const total = async () =>
    ((await team.request('GET', '/api/sessions', undefined, { token: viewer })).json as unknown as { total: number })
      .total;

  it('a push tells the subscribed dashboard which session changed, then that the list did', async () => {
    const stream = await openStream(team.url, viewer);
    const heardElsewhere: string[] = [];
    let heard: (() => void) | undefined;
    const stopOther = other.subscribe((m) => {
      heardElsewhere.push(m.type === 'session-updated' ? m.sessionId : m.type);
      heard?.();
    });
    const untilHeard = (n: number) =>
      new Promise<void>((resolve) => {
        heard = () => heardElsewhere.length >= n && resolve();
        heard();
      });
    expect(await stream.nextChange()).toEqual({ event: 'hello', data: '{"type":"hello"}' });
    expect(await total()).toBe(0);

    const pushed = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([metadataSession(1)]));
    expect(pushed.json).toEqual({ success: true, data: { stored: 1, unchanged: 0 } });
    expect(await stream.nextChange()).toEqual({
      event: 'session-updated',
      data: JSON.stringify({ type: 'session-updated', sessionId: uidOf(1) }),
    });
    expect(await stream.nextChange()).toEqual({ event: 'sessions-changed', data: '{"type":"sessions-changed"}' });
    // the list asked again is the new one (its cached answer went with the change)
    expect(await total()).toBe(1);

    // an unchanged re-push announces nothing: the next thing heard is the session changed after it
    const again = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([metadataSession(1)]));
    expect(again.json).toEqual({ success: true, data: { stored: 0, unchanged: 1 } });
    await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([metadataSession(2, 'a new title')]));
    expect(await stream.nextChange()).toEqual({
      event: 'session-updated',
      data: JSON.stringify({ type: 'session-updated', sessionId: uidOf(2) }),
    });
    expect((await stream.nextChange()).event).toBe('sessions-changed');

    // a forgotten session is announced too (an open timeline then says it is gone)
    const forgot = await team.request('POST', '/api/team/v1/push/forget', {
      version: TEAM_PAYLOAD_VERSION,
      uids: [uidOf(2)],
    });
    expect(forgot.json).toEqual({ success: true, data: { forgotten: 1 } });
    expect(await stream.nextChange()).toEqual({
      event: 'session-updated',
      data: JSON.stringify({ type: 'session-updated', sessionId: uidOf(2) }),
    });
    expect((await stream.nextChange()).event).toBe('sessions-changed');
    expect(await total()).toBe(1);
    stream.close();
    await untilHeard(6);
    stopOther();
    expect(heardElsewhere).toEqual([
      uidOf(1),
      'sessions-changed',
      uidOf(2),
      'sessions-changed',
      uidOf(2),
      'sessions-changed',
    ]);
  });

  it('telemetry a device sends is told live: the pushed session it joins, or the telemetry-only one', async () => {
    const stream = await openStream(team.url, viewer);
    expect((await stream.nextChange()).event).toBe('hello');
    const sendTelemetry = async (body: string) =>
      (
        await team.request('POST', '/v1/logs', undefined, {
          raw: body,
          headers: { 'content-type': 'application/json' },
        })
      ).status;
    // ann's pushed session 1 is `session-1`: its page (by uid) and the telemetry session are both told
    expect(await sendTelemetry(toolResultExport('session-1', 'toolu_live_1'))).toBe(200);
    expect(await stream.nextAnnounced()).toEqual(['session-1', uidOf(1)].sort());
    // the exporter's retry stores nothing and tells nothing: the next heard is a session known only from telemetry
    expect(await sendTelemetry(toolResultExport('session-1', 'toolu_live_1'))).toBe(200);
    expect(await sendTelemetry(toolResultExport('telemetry-only-7', 'toolu_live_2'))).toBe(200);
    expect(await stream.nextAnnounced()).toEqual(['telemetry-only-7']);
    const only = (await team.request('GET', '/api/telemetry/sessions', undefined, { token: viewer }))
      .json as unknown as {
      sessions: { sessionId: string }[];
    };
    expect(only.sessions.map((x) => x.sessionId)).toEqual(['telemetry-only-7']);
    stream.close();
  });
});
