/**
 * Codex CLI's and Gemini CLI's recorded OTLP exports (their exact bytes, bundled trimmed) replayed against a real
 * `serve`: shuffled, every request sent twice, every other one gzip-compressed; then each session's measured model and
 * tool time (the sums of the client's own durations), its measured calls (each one of the session's calls), and a
 * session seen only through telemetry until its transcript is indexed.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { decodeOtlpRequest, type OtelRecord, signalOfOtlpPath } from '@agentdash/core';
import { type AgentIndex, openIndex } from '@agentdash/index';
import {
  agentOtelRecordings,
  clientSums,
  otelFixtureDir,
  type RecordedRequest,
  readRecording,
} from '@agentdash/testing/otel-recordings';
import { shuffled } from '@agentdash/testing/otlp-replay';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server.js';
import type { SessionTelemetryDto } from './telemetry-routes.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function serve(paths: string[]): Promise<{ index: AgentIndex; server: RunningServer; endpoint: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-agent-otlp-'));
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  const server = await startServer({ index, paths, host: '127.0.0.1', port: 0, otlpPort: 0, sessionWorker: false });
  cleanups.push(async () => {
    await server.close();
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await server.indexed;
  const otlp = server.otlp;
  if (otlp === undefined || !('endpoint' in otlp)) throw new Error('the OTLP receiver is not listening');
  return { index, server, endpoint: otlp.endpoint };
}

async function send(endpoint: string, request: RecordedRequest, gzip: boolean): Promise<number> {
  const response = await fetch(`${endpoint}${request.path}`, {
    method: 'POST',
    headers: { 'content-type': request.contentType, ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
    body: new Uint8Array(gzip ? gzipSync(request.body) : request.body),
  });
  await response.arrayBuffer();
  return response.status;
}

function recordsOf(requests: readonly RecordedRequest[]): OtelRecord[] {
  return requests.flatMap((request) => {
    const signal = signalOfOtlpPath(request.path) ?? 'logs';
    return decodeOtlpRequest({ signal, contentType: request.contentType, contentEncoding: '', body: request.body })
      .records;
  });
}

async function getJson<T>(server: RunningServer, path: string): Promise<T> {
  const response = await fetch(new URL(path, server.url));
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

describe.each(agentOtelRecordings)('$name replayed against a real serve', ({ name, agent, home }) => {
  const dir = join(otelFixtureDir, name);

  it('shuffled, sent twice, half gzip: measured model and tool time are the client sums, calls join', async () => {
    const { index, server, endpoint } = await serve([join(dir, home)]);
    const requests = readRecording(dir);
    const statuses: number[] = [];
    for (const [i, request] of shuffled([...requests, ...requests]).entries()) {
      statuses.push(await send(endpoint, request, i % 2 === 1));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const expected = clientSums(agent, recordsOf(requests));
    expect(expected.size).toBeGreaterThan(0);
    for (const [id, sums] of expected) {
      const dto = await getJson<SessionTelemetryDto>(server, `api/telemetry/sessions/${id}`);
      expect([id, dto.hasTranscript, dto.modelTime, dto.telemetry.apiRequests]).toEqual([
        id,
        true,
        { ms: sums.modelMs, source: 'measured' },
        sums.apiRequests,
      ]);
      expect(dto.toolTime.source).toBe('measured');
      // neither client exports a cost: nothing to compare with AgentDash's, nothing flagged
      expect([dto.telemetry.client, dto.telemetry.costReported, dto.cost.difference, dto.cost.flagged]).toEqual([
        agent === 'codex' ? 'Codex CLI' : 'Gemini CLI',
        false,
        null,
        false,
      ]);
      expect(dto.toolTime.ms).toBeCloseTo(sums.toolMs, 9);
      const callIds = new Set(index.calls({ sessionId: id, limit: 1_000_000 }).map((call) => call.callId));
      expect(Object.keys(dto.calls).sort()).toEqual([...sums.callIds].sort());
      expect(Object.keys(dto.calls).filter((callId) => !callIds.has(callId))).toEqual([]);
    }
    const only = await getJson<{ sessions: unknown[] }>(server, 'api/telemetry/sessions');
    expect(only.sessions).toEqual([]);
  });

  it('a session is telemetry-only until its transcript is indexed, then one session', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'agentdash-agent-otlp-empty-'));
    mkdirSync(join(empty, 'sessions'));
    cleanups.push(async () => rmSync(empty, { recursive: true, force: true }));
    const { index, server, endpoint } = await serve([empty]);
    const requests = readRecording(dir);
    for (const request of requests) expect(await send(endpoint, request, false)).toBe(200);
    const expected = clientSums(agent, recordsOf(requests));
    type Listed = { sessionId: string; toolCalls: number; hasTranscript: boolean };
    const before = await getJson<{ sessions: Listed[] }>(server, 'api/telemetry/sessions');
    expect(before.sessions.map((s) => [s.sessionId, s.hasTranscript, s.toolCalls]).sort()).toEqual(
      [...expected].map(([id, s]) => [id, false, s.toolCalls]).sort(),
    );
    await index.refresh([join(dir, home)]);
    const after = await getJson<{ sessions: Listed[] }>(server, 'api/telemetry/sessions');
    expect(after.sessions).toEqual([]);
    for (const id of expected.keys()) expect(index.listSessions().filter((s) => s.id === id).length).toBe(1);
  });
});
