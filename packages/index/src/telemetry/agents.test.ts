/**
 * Codex CLI's and Gemini CLI's own telemetry (recorded against the scripted model, bundled trimmed) stored and joined
 * to their transcripts: every tool result to its call, each session's model and tool time the sum of the client's
 * own durations, sessions telemetry-only until the transcript arrives, then one session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeOtlpRequest, type OtelRecord, signalOfOtlpPath } from '@agentdash/core';
import { agentOtelRecordings, clientSums, otelFixtureDir, readRecording } from '@agentdash/testing/otel-recordings';
import { shuffled } from '@agentdash/testing/otlp-replay';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshIndex(): AgentIndex {
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-agent-otel-'));
  dirs.push(dir);
  return openIndex({ dbPath: join(dir, 'index.sqlite') });
}

function requestsOf(dir: string): OtelRecord[][] {
  return readRecording(dir).map((request) => {
    const signal = signalOfOtlpPath(request.path) ?? 'logs';
    const decoded = decodeOtlpRequest({
      signal,
      contentType: request.contentType,
      contentEncoding: '',
      body: request.body,
    });
    expect(decoded.ok).toBe(true);
    return [...decoded.records];
  });
}

describe.each(agentOtelRecordings)('$name: telemetry joined to the transcripts', ({ name, agent, home }) => {
  const dir = join(otelFixtureDir, name);

  for (const order of ['telemetry first', 'transcripts first'] as const) {
    it(`${order}, shuffled and sent twice: every tool result joins its call, times are the client's sums`, async () => {
      const index = freshIndex();
      const requests = requestsOf(dir);
      if (order === 'transcripts first') await index.refresh([join(dir, home)]);
      for (const records of shuffled([...requests, ...requests])) index.telemetry.store(records);
      const once = freshIndex();
      for (const records of requests) once.telemetry.store(records);
      expect(index.telemetry.counts()).toEqual(once.telemetry.counts());
      once.close();
      if (order === 'telemetry first') await index.refresh([join(dir, home)]);
      const expected = clientSums(agent, requests.flat());
      expect(expected.size).toBeGreaterThan(0);
      const joins = index.telemetry.joins();
      const expectedCalls = [...expected.values()].reduce((n, s) => n + s.toolCalls, 0);
      expect([joins.toolResults, joins.toolResultsWithCall]).toEqual([expectedCalls, expectedCalls]);
      expect(expectedCalls).toBeGreaterThan(0);
      for (const [id, e] of expected) {
        const t = index.telemetry.sessionTelemetry(id);
        const measured = index.telemetry.measuredBySession().get(id);
        expect([id, t?.hasTranscript, t?.apiRequests, t?.modelMs, t?.toolCalls]).toEqual([
          id,
          true,
          e.apiRequests,
          e.modelMs,
          e.toolCalls,
        ]);
        expect(t?.toolMs).toBeCloseTo(e.toolMs, 9);
        expect(measured?.modelMs).toBe(e.modelMs);
        expect([...index.telemetry.measuredCalls(id).keys()].sort()).toEqual([...e.callIds].sort());
        expect(index.listSessions().filter((s) => s.id === id).length).toBe(1);
      }
      index.close();
    });
  }

  it('sessions are telemetry-only (calls, tools, tokens) until their transcripts arrive, then one each', async () => {
    const index = freshIndex();
    for (const records of requestsOf(dir)) index.telemetry.store(records);
    const expected = clientSums(agent, requestsOf(dir).flat());
    const only = index.telemetry.telemetryOnlySessions();
    expect(only.map((s) => s.sessionId).sort()).toEqual([...expected.keys()].sort());
    for (const s of only) {
      expect([s.hasTranscript, s.toolCalls, s.apiRequests]).toEqual([
        false,
        expected.get(s.sessionId)?.toolCalls,
        expected.get(s.sessionId)?.apiRequests,
      ]);
      expect(s.client).toBe(agent === 'codex' ? 'Codex CLI' : 'Gemini CLI');
      expect(s.inputTokens + s.cacheReadTokens).toBeGreaterThan(0);
      expect(s.prompts).toBeGreaterThan(0);
    }
    expect(index.listSessions().length).toBe(0);
    await index.refresh([join(dir, home)]);
    expect(index.telemetry.telemetryOnlySessions()).toEqual([]);
    for (const id of expected.keys()) expect(index.listSessions().filter((s) => s.id === id).length).toBe(1);
    index.close();
  });
});
