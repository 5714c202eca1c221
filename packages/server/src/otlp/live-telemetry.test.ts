/**
 * The OTLP receiver beside a running dashboard: a large export is decoded and stored off the dashboard's thread (the
 * dashboard answers while it is), and what is stored reaches the dashboard live — a session known only from
 * telemetry is listed and told over SSE at once, and merges with its transcript into one session when that arrives.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { MeasuredResponse, TelemetrySessionsResponse, TelemetryStepsResponse } from '@agentdash/api';
import { attrText, decodeOtlpRequest, signalOfOtlpPath } from '@agentdash/core';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { otelFixtureDir, type RecordedRequest, readRecording } from '@agentdash/testing/otel-recordings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionsResponse, StatsResponse, UsageResponse } from '../api-types.js';
import { type RunningServer, startServer } from '../server.js';
import { startOtlpListener } from './listen.js';

const recording = join(otelFixtureDir, '2.1.332-json');
const SESSION = '38ec88f3-0d58-4209-9ff9-b12b8004928d';
const PROJECT = '-home-user-proj-shell';
const requests = readRecording(recording);

function namesSession(request: RecordedRequest): boolean {
  const signal = signalOfOtlpPath(request.path);
  if (signal === null) return false;
  const decoded = decodeOtlpRequest({
    signal,
    contentType: request.contentType,
    contentEncoding: '',
    body: request.body,
  });
  return decoded.records.some((r) => r.kind !== 'unknown' && attrText(r.attributes, 'session.id') === SESSION);
}

/**
 * One valid OTLP/JSON logs export, tens of megabytes once decompressed: the recording's first logs request with its
 * records repeated (a compressed body under the 16 MiB cap).
 */
function largeLogsBody(): Uint8Array<ArrayBuffer> {
  const logs = requests.find((r) => r.path === '/v1/logs');
  if (logs === undefined) throw new Error('no logs request in the recording');
  const json = JSON.parse(new TextDecoder().decode(logs.body)) as {
    resourceLogs: { scopeLogs: { logRecords: unknown[] }[] }[];
  };
  const scope = json.resourceLogs[0]?.scopeLogs[0];
  if (scope === undefined) throw new Error('no log records');
  const records = scope.logRecords;
  scope.logRecords = Array.from({ length: 8_000 }, (_, i) => records[i % records.length]);
  return new Uint8Array(gzipSync(JSON.stringify(json)));
}

const post = (endpoint: string, request: RecordedRequest) =>
  fetch(`${endpoint}${request.path}`, {
    method: 'POST',
    headers: { 'content-type': request.contentType },
    body: new Uint8Array(request.body),
  }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });

interface Served {
  readonly tmp: string;
  readonly home: string;
  readonly index: AgentIndex;
  readonly server: RunningServer;
}

/** A real serve over an empty home (its own index), with its OTLP receiver when `otlp`. */
async function serveEmptyHome(otlp: boolean): Promise<Served> {
  const tmp = await mkdtemp(join(tmpdir(), 'agentdash-otlp-live-'));
  const home = join(tmp, 'claude-home');
  await mkdir(join(home, 'projects'), { recursive: true });
  const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  const server = await startServer({
    index,
    paths: [home],
    host: '127.0.0.1',
    port: 0,
    sessionWorker: false,
    ...(otlp ? { otlpPort: 0 } : {}),
  });
  await server.indexed;
  return { tmp, home, index, server };
}

async function closeServed(served: Served | undefined): Promise<void> {
  if (served === undefined) return;
  await served.server.close();
  served.index.close();
  await rm(served.tmp, { recursive: true, force: true });
}

describe('the OTLP receiver beside a running dashboard', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveEmptyHome(false);
  });
  afterAll(() => closeServed(served));

  /** Which answers first: the export of a large body, or a dashboard request sent once that body has arrived. */
  async function firstAnswered(worker: boolean) {
    const order: string[] = [];
    let dashboard: Promise<void> | undefined;
    const { index, server } = served;
    const otlp = await startOtlpListener({
      index,
      port: 0,
      worker,
      onBody: () => {
        dashboard = fetch(new URL('api/health', server.url)).then(async (r) => {
          await r.arrayBuffer();
          order.push(`dashboard ${r.status}`);
        });
      },
    });
    try {
      const status = await fetch(`${otlp.endpoint}/v1/logs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: largeLogsBody(),
      }).then(async (r) => {
        await r.text();
        order.push(`export ${r.status}`);
      });
      await status;
      await dashboard;
      return { order, inWorker: otlp.inWorker };
    } finally {
      await otlp.close();
    }
  }

  it('a large export is decoded and stored off the thread: the dashboard answers first', async () => {
    expect(await firstAnswered(true)).toEqual({ order: ['dashboard 200', 'export 200'], inWorker: true });
  });

  it('decoded on the dashboard thread (the control), the same export holds the dashboard until it is stored', async () => {
    expect(await firstAnswered(false)).toEqual({ order: ['export 200', 'dashboard 200'], inWorker: false });
  });
});

describe("serve's OTLP receiver and the live dashboard", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveEmptyHome(true);
  });
  afterAll(() => closeServed(served));

  it('a session known only from telemetry is told live, fills in, then merges with its transcript', async () => {
    const { server, home } = served;
    const otlp = server.otlp;
    if (otlp === undefined || !('endpoint' in otlp)) throw new Error('the OTLP receiver is not listening');
    const ctl = new AbortController();
    try {
      // the live events the dashboard listens to
      const sse = await fetch(new URL('api/events', server.url), { signal: ctl.signal });
      const reader = (sse.body as ReadableStream<Uint8Array>).getReader();
      let seen = '';
      const until = async (text: string) => {
        while (!seen.includes(text)) {
          const chunk = await reader.read();
          if (chunk.done) throw new Error(`the event stream ended before ${text}`);
          seen += new TextDecoder().decode(chunk.value);
        }
        seen = seen.slice(seen.indexOf(text) + text.length);
      };
      await until('event: hello');

      const first = requests.findIndex(namesSession);
      for (const request of requests.slice(0, first + 1)) expect(await post(otlp.endpoint, request)).toBe(200);
      await until(`"sessionId":"${SESSION}"`);
      const api = async <T>(path: string): Promise<T> => (await fetch(new URL(path, server.url))).json() as Promise<T>;
      const only = await api<TelemetrySessionsResponse>('api/telemetry/sessions');
      expect(only.sessions.map((s) => [s.sessionId, s.hasTranscript])).toContainEqual([SESSION, false]);
      expect((await api<SessionsResponse>('api/sessions')).sessions).toEqual([]);
      const early = (await api<TelemetryStepsResponse>(`api/telemetry/sessions/${SESSION}/steps`)).steps;

      for (const request of requests.slice(first + 1)) expect(await post(otlp.endpoint, request)).toBe(200);
      const steps = (await api<TelemetryStepsResponse>(`api/telemetry/sessions/${SESSION}/steps`)).steps;
      const tools = steps.filter((s) => s.kind === 'tool');
      expect(early.filter((s) => s.kind === 'tool').length).toBeLessThan(tools.length);
      const measured = (await api<MeasuredResponse>(`api/telemetry/measured/${SESSION}`)).telemetry;
      expect([measured?.hasTranscript, measured?.telemetry.toolCalls, measured?.toolTime.source]).toEqual([
        false,
        tools.length,
        'measured',
      ]);
      expect(tools.reduce((n, s) => n + (s.durationMs ?? 0), 0)).toBe(measured?.toolTime.ms);

      // the transcript arrives: one session, its telemetry joined, none left telemetry-only
      await cp(join(recording, 'claude-home/projects', PROJECT), join(home, 'projects', PROJECT), { recursive: true });
      // the events of the exports sent before may still be queued: each update of the session, until it is listed
      let listed: string[] = [];
      while (listed.length === 0) {
        await until(`"sessionId":"${SESSION}"`);
        listed = (await api<SessionsResponse>('api/sessions')).sessions.map((s) => s.id);
      }
      expect(listed).toEqual([SESSION]);
      const left = await api<TelemetrySessionsResponse>('api/telemetry/sessions');
      expect(left.sessions.map((s) => s.sessionId)).not.toContain(SESSION);
      const joined = (await api<MeasuredResponse>(`api/telemetry/measured/${SESSION}`)).telemetry;
      expect([joined?.hasTranscript, joined?.toolTime]).toEqual([true, measured?.toolTime]);
      expect(Object.keys(joined?.calls ?? {}).sort()).toEqual(tools.map((t) => t.id).sort());
      expect((await api<MeasuredResponse>('api/telemetry/measured/no-such-session')).telemetry).toBeNull();
      // the Usage page's time: the measured sums of the sessions that have telemetry, the inferred beside them
      const usage = await api<UsageResponse>('api/usage');
      expect(usage.time.measured).toEqual({
        sessions: 1,
        apiRequests: joined?.telemetry.apiRequests,
        toolCalls: tools.length,
        modelMs: joined?.modelTime.ms,
        toolMs: joined?.toolTime.ms,
        inferredModelMs: joined?.inferred?.modelMs,
        inferredToolMs: joined?.inferred?.toolMs,
      });
      // the Analytics page's: the measured runs of the sessions in scope
      const stats = await api<StatsResponse>('api/stats');
      expect([stats.measured?.calls, stats.measured?.sessions, stats.totals.sessions]).toEqual([tools.length, 1, 1]);
      expect((await api<StatsResponse>('api/stats?project=nowhere')).measured).toBeUndefined();
    } finally {
      ctl.abort();
    }
  });
});
