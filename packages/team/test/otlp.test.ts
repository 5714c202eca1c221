/**
 * OTLP into the team server (real PostgreSQL, real HTTP): recorded Claude Code exports replayed with a device token
 * (the bundled trimmed recordings, and ../shared/corpus-otel when present) give the laptop's telemetry figures;
 * tokens and bodies are checked; planted secrets and markers above a device's tier are in no table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { decodeOtlpRequest, signalOfOtlpPath } from '@agentdash/core';
import { plantedSecrets } from '@agentdash/core/secrets/planted';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp, type SessionTelemetryDto, type TelemetrySetupResponse } from '@agentdash/server';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import {
  corpusOtelDir,
  hasCorpusOtel,
  otelFixtureDir,
  otelRecordings,
  type RecordedRequest,
  readRecording,
} from '@agentdash/testing/otel-recordings';
import { repeatedRequests, shuffled } from '@agentdash/testing/otlp-replay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, addPerson, addViewer, revoke } from '../src/pg/people.js';
import { sessionUid } from '../src/push/hash.js';
import { allowed, kinds, kv, M, plantedExport } from './otlp-planted.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';

async function post(url: string, path: string, body: Uint8Array | string, headers: Record<string, string>) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: response.status, text: await response.text() };
}

const send = (url: string, token: string, r: RecordedRequest, gzip = false) =>
  post(url, r.path, gzip ? gzipSync(r.body) : r.body, {
    authorization: `Bearer ${token}`,
    'content-type': r.contentType,
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });

/** Every row of every table of the team schema, as text. */
async function everyTable(team: TeamFixture): Promise<string> {
  const tables = await team.db.sql<{ name: string }[]>`
    select table_name as name from information_schema.tables where table_schema = ${team.db.schema}`;
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await team.db.sql.unsafe(`select row_to_json(t)::text as row from "${name}" t`);
    parts.push(...rows.map((r) => String(r.row)));
  }
  return parts.join('\n');
}

/** Every telemetry row, as text. */
async function telemetryRows(team: TeamFixture): Promise<string> {
  const parts: string[] = [];
  for (const table of ['otel_events', 'otel_spans', 'otel_metrics', 'otel_unknown']) {
    const rows = await team.db.sql.unsafe(`select row_to_json(t)::text as row from ${table} t order by 1`);
    parts.push(...rows.map((r) => String(r.row)));
  }
  return parts.join('\n');
}

/** `/api/telemetry/measured/:id`'s answer. */
type Measured = { telemetry: SessionTelemetryDto | null };

/** The figures the dashboard shows of a session's telemetry (the cost sum may differ in its last bits). */
const figures = (d: SessionTelemetryDto) => ({
  sessionId: d.sessionId,
  hasTranscript: d.hasTranscript,
  modelTime: d.modelTime,
  toolTime: d.toolTime,
  permissionWaitMs: d.permissionWaitMs,
  inferred: d.inferred,
  computedUsd: d.cost.computedUsd,
  flagged: d.cost.flagged,
  counts: { ...d.telemetry, costUsd: undefined },
  calls: d.calls,
  requests: d.requests,
});

function replaySuite(base: string) {
  for (const name of otelRecordings) {
    describe(name, () => {
      let team: TeamFixture;
      let index: AgentIndex;
      let dir: string;
      let uidOf: Map<string, string>;
      const requests = () => readRecording(join(base, name));
      beforeAll(async () => {
        team = await startTeam();
        dir = mkdtempSync(join(tmpdir(), 'agentdash-team-otlp-'));
        // the run's index of the recorded home (built once per run); the refresh finds nothing new
        await copyOfIndex([join(base, name, 'claude-home')], join(dir, 'index.sqlite'));
        index = openIndex({ dbPath: join(dir, 'index.sqlite') });
        await index.refresh([join(base, name, 'claude-home')]);
        // the laptop's own receiver stores what the team server receives
        for (const r of requests()) {
          const signal = signalOfOtlpPath(r.path);
          if (!signal) continue;
          index.telemetry.store(
            decodeOtlpRequest({ signal, contentType: r.contentType, contentEncoding: '', body: r.body }).records,
          );
        }
        const [{ salt } = { salt: '' }] = await team.db.sql<
          { salt: string }[]
        >`select salt from people where name = 'ann'`;
        await team.db.sql`update devices set otel_tier = 'full'`;
        await team.pushIndex(index);
        uidOf = new Map(index.listSessions().map((s) => [s.id, sessionUid(salt, s.agent, s.key)]));
      });
      afterAll(async () => {
        index?.close();
        await team?.close();
        rmSync(dir, { recursive: true, force: true });
      });

      // of the long corpus recording, outside the full run, a fixed sample is sent again (repeatedRequests)
      it('every request, sent again in shuffled order, half gzip, is stored once', async () => {
        const all = requests();
        const again = repeatedRequests(all);
        const statuses: number[] = [];
        for (const [i, r] of shuffled([...all, ...again]).entries()) {
          statuses.push((await send(team.url, team.token, r, i % 2 === 1)).status);
        }
        expect(statuses.filter((s) => s !== 200)).toEqual([]);
        const before = await everyTable(team);
        for (const r of again) expect((await send(team.url, team.token, r)).status).toBe(200);
        expect(await everyTable(team)).toBe(before);
      });

      it("each session's telemetry figures equal the laptop's /api/telemetry/sessions/:id", async () => {
        const local = createApp({ index, paths: [], host: '127.0.0.1', port: 4317 });
        const ids = index.telemetry.telemetrySessionIds();
        expect(ids.length).toBeGreaterThan(0);
        let measured = 0;
        for (const id of ids) {
          const res = await local.request(`/api/telemetry/sessions/${id}`, { headers: { host: '127.0.0.1:4317' } });
          const mine = (await res.json()) as SessionTelemetryDto;
          const ref = uidOf.get(id) ?? id;
          const theirs = (await team.request('GET', `/api/telemetry/sessions/${ref}`))
            .json as unknown as SessionTelemetryDto;
          expect([id, figures(theirs)]).toEqual([id, figures(mine)]);
          expect(theirs.cost.clientUsd).toBeCloseTo(mine.cost.clientUsd, 9);
          if (mine.modelTime.source === 'measured') measured++;
        }
        expect(measured).toBeGreaterThan(0);
        const only = (await team.request('GET', '/api/telemetry/sessions')).json as unknown as {
          sessions: { sessionId: string; person: string }[];
        };
        expect(new Set(only.sessions.map((s) => s.person))).toEqual(new Set(only.sessions.length ? ['ann'] : []));
        const localOnly = index.telemetry.telemetryOnlySessions().map((s) => s.sessionId);
        expect(only.sessions.map((s) => s.sessionId).sort()).toEqual(localOnly.sort());
        // the device filter every other route takes: ann/laptop sent them all, no other device any
        const byDevice = async (device: string) =>
          (
            (await team.request('GET', `/api/telemetry/sessions?device=${encodeURIComponent(device)}`))
              .json as unknown as {
              sessions: { sessionId: string }[];
            }
          ).sessions.map((s) => s.sessionId);
        expect((await byDevice('ann/laptop')).sort()).toEqual(localOnly.sort());
        expect((await byDevice('laptop')).sort()).toEqual(localOnly.sort());
        // a device not on the team is a 400 naming those there are, not an empty answer
        const unknown = await team.request('GET', '/api/telemetry/sessions?device=ann%2Fdesktop');
        expect([unknown.status, (unknown.json as { error?: string }).error]).toEqual([
          400,
          expect.stringContaining('device "ann/desktop" is not on this team (ann/laptop'),
        ]);
      });

      // What the dashboard itself asks (the session page's figures, the list's marks, a telemetry-only session's
      // steps): a team server once answered the first two with nothing and the third with 404, whatever it held.
      it("the dashboard's telemetry routes answer as the laptop's: measured, ids and steps", async () => {
        const local = createApp({ index, paths: [], host: '127.0.0.1', port: 4317 });
        const mine = async (path: string) => await local.request(path, { headers: { host: '127.0.0.1:4317' } });
        const theirs = async (path: string) => await team.request('GET', path);
        const ids = index.telemetry.telemetrySessionIds();
        let measured = 0;
        let stepped = 0;
        for (const id of ids) {
          const ref = uidOf.get(id) ?? id;
          const a = ((await (await mine(`/api/telemetry/measured/${id}`)).json()) as Measured).telemetry;
          const b = ((await theirs(`/api/telemetry/measured/${ref}`)).json as unknown as Measured).telemetry;
          expect([id, b && figures(b)]).toEqual([id, a && figures(a)]);
          if (a) measured++;
          const [stepsA, stepsB] = [
            await mine(`/api/telemetry/sessions/${id}/steps`),
            await theirs(`/api/telemetry/sessions/${ref}/steps`),
          ];
          expect([id, stepsB.status]).toEqual([id, stepsA.status]);
          if (stepsA.status !== 200) continue;
          const want = (await stepsA.json()) as { steps: unknown[] };
          expect([id, stepsB.json]).toEqual([id, want]);
          stepped += want.steps.length;
        }
        expect([measured, stepped > 0]).toEqual([ids.length, true]);
        // the list marks the pushed sessions telemetry names, by the uid it lists them by
        const marked = (await theirs('/api/telemetry/ids')).json as unknown as { sessionIds: string[] };
        const pushed = ids.flatMap((id) => uidOf.get(id) ?? []);
        expect(pushed.length).toBeGreaterThan(0);
        expect([...marked.sessionIds].sort()).toEqual(pushed.sort());
      });

      it('a missing, unknown or revoked token gets 401, a viewer 403, a bad body 400, a huge one 413', async () => {
        const [first] = requests();
        if (!first) throw new Error('empty recording');
        const before = await telemetryRows(team);
        const json = { 'content-type': 'application/json' };
        expect((await post(team.url, '/v1/logs', first.body, { 'content-type': first.contentType })).status).toBe(401);
        expect((await send(team.url, 'adt_nosuchtoken', first)).status).toBe(401);
        await addPerson(team.db.sql, 'cy');
        const cy = (await addDevice(team.db.sql, 'cy', 'laptop')).token;
        await revoke(team.db.sql, 'cy/laptop');
        expect((await send(team.url, cy, first)).status).toBe(401);
        const lead = (await addViewer(team.db.sql, `lead-${name}`)).token;
        expect((await send(team.url, lead, first)).status).toBe(403);
        const auth = { authorization: `Bearer ${team.token}` };
        const bad = await post(team.url, '/v1/logs', '{"resourceLogs": [', { ...auth, ...json });
        expect([bad.status, bad.text.split(':')[0], bad.text.split('\n').length]).toEqual([400, 'invalid_json', 2]);
        const other = await post(team.url, '/v1/traces', '{"hello": "world"}', { ...auth, ...json });
        expect([other.status, other.text.split(':')[0]]).toEqual([400, 'not_otlp']);
        const text = await post(team.url, first.path, first.body, { ...auth, 'content-type': 'text/plain' });
        expect(text.status).toBe(400);
        const huge = await post(team.url, '/v1/logs', new Uint8Array(17 * 2 ** 20), { ...auth, ...json });
        // what an exporter can do about it, not what a laptop's push can ("push fewer sessions per request")
        expect([huge.status, huge.text.includes('send fewer records per export')]).toEqual([413, true]);
        expect(await telemetryRows(team)).toBe(before);
      });
    });
  }
}

pgSuite('OTLP into the team server (bundled trimmed recordings)', () => replaySuite(otelFixtureDir));

if (hasCorpusOtel) {
  pgSuite('OTLP into the team server over ../shared/corpus-otel', () => replaySuite(corpusOtelDir));
} else {
  describe.skip('OTLP into the team server over ../shared/corpus-otel (skipped: ../shared/corpus-otel is not present)', () => {
    it('needs ../shared/corpus-otel', () => {});
  });
}

pgSuite('OTLP into the team server: each device tier, planted secrets and markers', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  it("/api/telemetry/setup: the team port as the client reached it, with a device token's header", async () => {
    const direct = (await team.request('GET', '/api/telemetry/setup')).json as unknown as TelemetrySetupResponse;
    const origin = new URL(team.url).origin;
    expect([direct.listening, direct.reason, direct.endpoint]).toEqual([true, null, origin]);
    expect(direct.authorization).toBe('Bearer <device token>');
    expect(direct.env.OTEL_EXPORTER_OTLP_HEADERS).toBe('Authorization=Bearer <device token>');
    expect(direct.codexToml).toContain(`endpoint = "${origin}/v1/logs"`);
    expect(direct.codexToml).toContain('headers = { "Authorization" = "Bearer <device token>" }');
    // neither tool details (commands, paths, MCP parameters) nor prompts are turned on for the team server
    expect([direct.env.OTEL_LOG_TOOL_DETAILS, direct.env.OTEL_LOG_USER_PROMPTS]).toEqual([undefined, undefined]);
    expect(direct.codexToml).toContain('log_user_prompt = false');
    expect(direct.geminiSettings.telemetry.logPrompts).toBe(false);
    // behind a reverse proxy (docs/team.md): the host and scheme the laptop uses
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'team.example:4317' };
    const proxied = (await team.request('GET', '/api/telemetry/setup', undefined, { headers })).json as unknown;
    expect((proxied as TelemetrySetupResponse).env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('https://team.example:4317');
  });

  it('stores figures no column can hold (a count past 2^63, text for a number) as sent, never a 503', async () => {
    await addPerson(team.db.sql, 'odd');
    const { token } = await addDevice(team.db.sql, 'odd', 'laptop', 'full');
    const body = {
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                {
                  timeUnixNano: '1795168802000000000',
                  attributes: [
                    kv('event.name', 'api_request'),
                    kv('session.id', 'odd-session'),
                    kv('input_tokens', '1e30'),
                    kv('duration_ms', 'soon'),
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const res = await post(team.url, '/v1/logs', JSON.stringify(body), {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    });
    expect(res.status).toBe(200);
    const rows = await team.db.sql`select input_tokens, duration_ms from otel_events where session_id = 'odd-session'`;
    expect(rows).toEqual([{ input_tokens: null, duration_ms: null }]);
  });

  it('names a Claude Code MCP tool as the laptop does at every tier, though only full keeps its parameters', async () => {
    for (const tier of ['summary', 'metadata', 'full'] as const) {
      await addPerson(team.db.sql, `mcp-${tier}`);
      const { token } = await addDevice(team.db.sql, `mcp-${tier}`, 'laptop', tier);
      const attributes = [
        kv('event.name', 'tool_result'),
        kv('session.id', `mcp-session-${tier}`),
        kv('tool_name', 'mcp_tool'),
        kv('tool_parameters', '{"mcp_server_name":"rec","mcp_tool_name":"echo"}'),
        kv('duration_ms', '40'),
      ];
      const body = {
        resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: '1795168802000000000', attributes }] }] }],
      };
      const res = await post(team.url, '/v1/logs', JSON.stringify(body), {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      });
      expect(res.status).toBe(200);
      const rows = await team.db.sql`select tool_name from otel_events where session_id = ${`mcp-session-${tier}`}`;
      expect([tier, rows]).toEqual([tier, [{ tool_name: 'mcp__rec__echo' }]]);
    }
  });

  it('stores nothing above the tier: markers above it and every secret are in no table', async () => {
    const planted = plantedSecrets();
    const secrets = planted.map((p) => p.secret);
    for (const [n, tier] of (['summary', 'metadata', 'full'] as const).entries()) {
      await addPerson(team.db.sql, `p-${tier}`);
      const { token } = await addDevice(team.db.sql, `p-${tier}`, 'laptop', tier);
      const bodies = plantedExport(tier, planted.map((p) => p.text).join('\n'), n + 1);
      for (const [signal, body] of Object.entries(bodies)) {
        const res = await post(team.url, `/v1/${signal}`, JSON.stringify(body), {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        });
        expect([tier, signal, res.status]).toEqual([tier, signal, 200]);
      }
    }
    const stored = await everyTable(team);
    for (const tier of ['summary', 'metadata', 'full'] as const) {
      const found = kinds.filter((k) => stored.includes(M(tier, k)));
      expect([tier, found]).toEqual([tier, allowed[tier]]);
    }
    expect(secrets.filter((s) => stored.includes(s))).toEqual([]);
    // what the tiers hold in common: the measured figures
    const [row] = await team.db.sql<{ n: number }[]>`
      select count(*)::int as n from otel_events where name = 'tool_result' and duration_ms = 120 and success = false`;
    expect(row?.n).toBe(3);
  });
});
