/**
 * Codex CLI and Gemini CLI exports into the team server (real PostgreSQL, real HTTP) from a `summary` device: the
 * bundled recordings' exact request bytes give the team's `/api/telemetry/sessions/:id` the laptop's figures for the
 * same bytes (model time, tool time, tokens, tool results), read through core's one mapping.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attrText, decodeOtlpRequest, type OtelRecord, signalOfOtlpPath } from '@agentdash/core';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp, type SessionTelemetryDto } from '@agentdash/server';
import { agentOtelRecordings, clientSums, otelFixtureDir, readRecording } from '@agentdash/testing/otel-recordings';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDevice, addPerson } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';

/** Attributes of these exports that carry content (a prompt, a call's arguments or output, an error's text). */
const CONTENT_KEYS = ['prompt', 'arguments', 'output', 'error.message', 'gen_ai.system_instructions'];

/** The figures a session's telemetry shows: measured times, counts and tokens, per call and per request. */
const figures = (d: SessionTelemetryDto) => ({
  sessionId: d.sessionId,
  modelTime: d.modelTime,
  toolTime: d.toolTime,
  counts: d.telemetry,
  calls: d.calls,
  requests: d.requests,
});

pgSuite('Codex CLI and Gemini CLI exports into the team server at the summary tier', () => {
  let team: TeamFixture;
  let dir: string;
  const indexes: AgentIndex[] = [];
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-team-agents-'));
  });
  afterAll(async () => {
    for (const index of indexes) index.close();
    await team?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [n, { name, agent }] of agentOtelRecordings.entries()) {
    it(`${name}: each session's figures equal the laptop's for the same bytes`, async () => {
      // a person per recording: the JSON and protobuf recordings hold the same sessions
      const person = `dev-${n}`;
      await addPerson(team.db.sql, person);
      const { token } = await addDevice(team.db.sql, person, 'laptop', 'summary');
      const index = openIndex({ dbPath: join(dir, `${name}.sqlite`) });
      indexes.push(index);
      const records: OtelRecord[] = [];
      for (const r of readRecording(join(otelFixtureDir, name))) {
        const signal = signalOfOtlpPath(r.path);
        if (!signal) continue;
        const decoded = decodeOtlpRequest({ signal, contentType: r.contentType, contentEncoding: '', body: r.body });
        records.push(...decoded.records);
        index.telemetry.store(decoded.records);
        const res = await fetch(`${team.url}${r.path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': r.contentType },
          body: new Uint8Array(r.body),
        });
        expect([r.path, res.status]).toEqual([r.path, 200]);
      }
      const client = clientSums(agent, records);
      const ids = index.telemetry.telemetrySessionIds();
      expect(ids.sort()).toEqual([...client.keys()].sort());
      const local = createApp({ index, paths: [], host: '127.0.0.1', port: 4317 });
      let toolResults = 0;
      let tokens = 0;
      for (const id of ids) {
        const res = await local.request(`/api/telemetry/sessions/${id}`, { headers: { host: '127.0.0.1:4317' } });
        const mine = (await res.json()) as SessionTelemetryDto;
        const theirs = await team.request('GET', `/api/telemetry/sessions/${id}?person=${person}`);
        expect([id, theirs.status]).toEqual([id, 200]);
        expect([id, figures(theirs.json as unknown as SessionTelemetryDto)]).toEqual([id, figures(mine)]);
        // the laptop's figures are the client's own
        const sums = client.get(id);
        expect([id, mine.telemetry.toolCalls, mine.telemetry.apiRequests]).toEqual([
          id,
          sums?.toolCalls,
          sums?.apiRequests,
        ]);
        toolResults += mine.telemetry.toolCalls;
        tokens += mine.telemetry.inputTokens + mine.telemetry.outputTokens;
      }
      expect(toolResults).toBeGreaterThan(0);
      expect(tokens).toBeGreaterThan(0);
      // nothing of the content the exports carried is stored at summary
      const content = new Set<string>();
      for (const r of records) {
        if (r.kind === 'unknown') continue;
        for (const key of CONTENT_KEYS) {
          const text = attrText(r.attributes, key);
          if (text.length >= 8) content.add(JSON.stringify(text).slice(1, -1));
        }
      }
      expect(content.size).toBeGreaterThan(0);
      const [{ rows } = { rows: '' }] = await team.db.sql<{ rows: string }[]>`
        select string_agg(t.record::text, ' ') as rows from (select record from otel_events union all
          select record from otel_spans union all select record from otel_metrics) t`;
      expect([...content].filter((c) => rows.includes(c))).toEqual([]);
    });
  }
});
