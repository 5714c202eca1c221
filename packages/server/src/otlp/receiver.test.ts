import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { attrNumber, attrText, decodeOtlpRequest, signalOfOtlpPath } from '@agentdash/core';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { dumpTelemetry } from '@agentdash/testing/dump';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import {
  corpusOtelDir,
  hasCorpusOtel,
  otelFixtureDir,
  otelRecordings,
  type RecordedRequest,
  readRecording,
} from '@agentdash/testing/otel-recordings';
import { recordKindsOf, repeatedRequests, shuffled } from '@agentdash/testing/otlp-replay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server.js';
import type { SessionTelemetryDto } from './telemetry-routes.js';

interface Served {
  readonly index: AgentIndex;
  readonly server: RunningServer;
  readonly endpoint: string;
  readonly dir: string;
}

async function serveRecording(recording: string): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-otlp-'));
  // the run's index of the recorded home (built once per run, the team's OTLP suite reads the same); the server's
  // first refresh finds nothing new
  await copyOfIndex([join(recording, 'claude-home')], join(dir, 'index.sqlite'));
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  const server = await startServer({
    index,
    paths: [join(recording, 'claude-home')],
    host: '127.0.0.1',
    port: 0,
    otlpPort: 0,
    sessionWorker: false,
  });
  await server.indexed;
  const otlp = server.otlp;
  if (otlp === undefined || !('endpoint' in otlp)) throw new Error('the OTLP receiver is not listening');
  return { index, server, endpoint: otlp.endpoint, dir };
}

async function send(endpoint: string, request: RecordedRequest, gzip: boolean) {
  const response = await fetch(`${endpoint}${request.path}`, {
    method: 'POST',
    headers: { 'content-type': request.contentType, ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
    body: new Uint8Array(gzip ? gzipSync(request.body) : request.body),
  });
  return { status: response.status, body: await response.text() };
}

function replaySuite(base: string) {
  for (const name of otelRecordings) {
    describe(name, () => {
      let served: Served;
      /** Whether the first test stored every request (each test after it sends them itself when run alone). */
      let storedAll = false;
      beforeAll(async () => {
        served = await serveRecording(join(base, name));
      });
      afterAll(async () => {
        await served.server.close();
        served.index.close();
        rmSync(served.dir, { recursive: true, force: true });
      });

      // of the long corpus recording, outside the full run, a fixed sample is sent again (repeatedRequests)
      it('every request, sent again in shuffled order, half gzip, is stored once and joins', async () => {
        const requests = readRecording(join(base, name));
        const again = repeatedRequests(requests);
        // the requests sent again carry every kind of record the recording does (each event, span, metric name)
        const kindsIn = (rs: typeof requests) => new Set(rs.flatMap((r) => [...recordKindsOf(r)]));
        const sentAgain = kindsIn(again);
        expect([...kindsIn(requests)].filter((kind) => !sentAgain.has(kind))).toEqual([]);
        const sends = shuffled([...requests, ...again]);
        const statuses = [];
        for (const [i, request] of sends.entries())
          statuses.push((await send(served.endpoint, request, i % 2 === 1)).status);
        expect(statuses.filter((s) => s !== 200)).toEqual([]);
        const { telemetry } = served.index;
        const once = telemetry.counts();
        // A third round changes nothing.
        for (const request of again) await send(served.endpoint, request, false);
        expect(telemetry.counts()).toEqual(once);
        const joins = telemetry.joins();
        const withTranscript = telemetry
          .telemetrySessionIds()
          .filter((id) => telemetry.sessionTelemetry(id)?.hasTranscript);
        const toolCalls = withTranscript.reduce((n, id) => n + (telemetry.sessionTelemetry(id)?.toolCalls ?? 0), 0);
        expect(toolCalls).toBeGreaterThan(0);
        expect(joins.toolResultsWithCall).toBe(toolCalls);
        expect(joins.transcriptRequests).toBeGreaterThan(0);
        expect(joins.transcriptRequestsWithApiRequest).toBe(joins.transcriptRequests);
        storedAll = true;
      });

      it('per session, model time is the sum of api_request and api_error durations, tool time of tool_result ones', async () => {
        const requests = readRecording(join(base, name));
        // stored by the test above (which checks that sending them again changes nothing), else sent here
        if (!storedAll) for (const request of requests) await send(served.endpoint, request, false);
        const sums = new Map<string, { modelMs: number; toolMs: number; costUsd: number; requests: number }>();
        for (const request of requests) {
          const signal = signalOfOtlpPath(request.path);
          if (signal !== 'logs') continue;
          const decoded = decodeOtlpRequest({
            signal,
            contentType: request.contentType,
            contentEncoding: '',
            body: request.body,
          });
          for (const r of decoded.records) {
            if (r.kind !== 'event') continue;
            const sid = attrText(r.attributes, 'session.id');
            const sum = sums.get(sid) ?? { modelMs: 0, toolMs: 0, costUsd: 0, requests: 0 };
            const ms = attrNumber(r.attributes, 'duration_ms') ?? 0;
            // a failed request (api_error) is measured model time too, as the transcripts count it
            if (r.name === 'api_request' || r.name === 'api_error') {
              sum.modelMs += ms;
              sum.requests += 1;
            }
            if (r.name === 'api_request') sum.costUsd += attrNumber(r.attributes, 'cost_usd') ?? 0;
            if (r.name === 'tool_result') sum.toolMs += ms;
            sums.set(sid, sum);
          }
        }
        const sessions = served.index.listSessions();
        expect(sessions.length).toBeGreaterThan(0);
        for (const session of sessions) {
          const response = await fetch(new URL(`api/telemetry/sessions/${session.id}`, served.server.url));
          const dto = (await response.json()) as SessionTelemetryDto;
          const sum = sums.get(session.id);
          expect([session.id, dto.modelTime, dto.toolTime.ms, dto.inferred?.modelMs]).toEqual([
            session.id,
            // measured once the client reported a request, a failed one too
            sum?.requests ? { ms: sum.modelMs, source: 'measured' } : { ms: session.time.modelMs, source: 'inferred' },
            sum?.toolMs,
            session.time.modelMs,
          ]);
          // every measured call of an indexed session is one of its calls, and the per-call figures sum to tool time
          const callIds = new Set(
            served.index.calls({ sessionId: session.id, limit: 1_000_000 }).map((call) => call.callId),
          );
          expect(Object.keys(dto.calls).filter((id) => !callIds.has(id))).toEqual([]);
          expect(Object.values(dto.calls).reduce((n, call) => n + call.durationMs, 0)).toBe(sum?.toolMs ?? 0);
          expect(Object.values(dto.requests).reduce((n, r) => n + r.durationMs, 0)).toBe(sum?.modelMs ?? 0);
          expect(dto.cost.clientUsd).toBeCloseTo(sum?.costUsd ?? Number.NaN, 9);
          // compared only with a cost of every model: one without a price makes the computed cost a part of it
          const computed = session.costUsd;
          const whole = session.unpricedModels.length === 0;
          const flagged =
            whole && computed !== null && computed > 0 && Math.abs(dto.cost.clientUsd - computed) / computed > 0.01;
          expect([dto.cost.computedUsd, dto.cost.flagged, dto.cost.gaps.unpricedModels ?? []]).toEqual([
            computed,
            flagged,
            session.unpricedModels,
          ]);
          if (!whole) expect(dto.cost.difference).toBeNull();
        }
        const only = await fetch(new URL('api/telemetry/sessions', served.server.url));
        const listed = ((await only.json()) as { sessions: { sessionId: string }[] }).sessions.map((s) => s.sessionId);
        const known = new Set(sessions.map((s) => s.id));
        expect(listed.sort()).toEqual([...sums.keys()].filter((id) => id !== '' && !known.has(id)).sort());
      });

      it('bodies that are not OTLP get a one-line reason and leave the index unchanged', async () => {
        const [first] = readRecording(join(base, name));
        if (first === undefined) throw new Error('empty recording');
        // the telemetry tables, not the file's data version: the receiver's worker opening the index, or the index's
        // own start-up writes, may commit once under load without storing anything a body could have sent
        const before = dumpTelemetry(join(served.dir, 'index.sqlite'));
        const post = async (
          path: string,
          contentType: string,
          body: Uint8Array | string,
          extra: Record<string, string> = {},
        ) => {
          const response = await fetch(`${served.endpoint}${path}`, {
            method: 'POST',
            headers: { 'content-type': contentType, ...extra },
            body: typeof body === 'string' ? body : new Uint8Array(body),
          });
          const text = await response.text();
          return [response.status, text.split('\n').length - 1, text.split(':')[0]];
        };
        expect(await post('/v1/logs', 'application/x-protobuf', first.body.subarray(0, first.body.length - 5))).toEqual(
          [400, 1, 'invalid_protobuf'],
        );
        expect(await post('/v1/logs', 'application/json', '{"resourceLogs": [')).toEqual([400, 1, 'invalid_json']);
        expect(await post('/v1/traces', 'application/json', '{"hello": "world"}')).toEqual([400, 1, 'not_otlp']);
        expect(await post(first.path, 'text/plain', first.body)).toEqual([400, 1, 'unsupported_content_type']);
        expect(await post(first.path, first.contentType, first.body, { 'content-encoding': 'gzip' })).toEqual([
          400,
          1,
          'bad_compression',
        ]);
        // just over the 16 MiB limit
        expect(await post(first.path, first.contentType, new Uint8Array(16 * 1024 * 1024 + 1))).toEqual([
          413,
          1,
          'body over 16777216 bytes\n',
        ]);
        // a gzip body that inflates past the 64 MiB cap: too large, as one over the cap as sent
        expect(
          await post(first.path, first.contentType, gzipSync(new Uint8Array(64 * 1024 * 1024 + 1)), {
            'content-encoding': 'gzip',
          }),
        ).toEqual([413, 1, 'too_large']);
        // a signal's body sent to another signal's path (an exporter's endpoints swapped): refused in either encoding
        const sent = readRecording(join(base, name));
        // metrics first: its messages read as logs' fields of other wire types (a unit where a severity is)
        const other = sent.find((r) => r.path === '/v1/metrics') ?? sent.find((r) => r.path !== '/v1/logs');
        if (other === undefined) throw new Error('a recording of logs only');
        expect(await post('/v1/logs', other.contentType, other.body)).toEqual([
          400,
          1,
          other.contentType.includes('json') ? 'not_otlp' : 'invalid_protobuf',
        ]);
        const notFound = await fetch(`${served.endpoint}/v1/other`, { method: 'POST', body: 'x' });
        expect(notFound.status).toBe(404);
        // DNS rebinding: a page of another site that resolves to 127.0.0.1 sends its own Host.
        const wrongHost = await new Promise<number | undefined>((resolve, reject) => {
          const sent = request(
            `${served.endpoint}/v1/logs`,
            { method: 'POST', headers: { host: 'evil.example:4318', 'content-type': first.contentType } },
            (response) => {
              response.resume();
              resolve(response.statusCode);
            },
          );
          sent.on('error', reject);
          sent.end(first.body);
        });
        expect(wrongHost).toBe(403);
        expect(dumpTelemetry(join(served.dir, 'index.sqlite'))).toBe(before);
      });
    });
  }
}

describe('the OTLP receiver of a real serve (bundled trimmed recordings)', () => replaySuite(otelFixtureDir));

const fullTitle = hasCorpusOtel
  ? 'the OTLP receiver of a real serve over ../shared/corpus-otel'
  : 'the OTLP receiver of a real serve over ../shared/corpus-otel (skipped: ../shared/corpus-otel is not present)';
describe.skipIf(!hasCorpusOtel)(fullTitle, () => replaySuite(corpusOtelDir));
