import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attrNumber, attrText, decodeOtlpRequest, type OtelRecord, signalOfOtlpPath } from '@agentdash/core';
import {
  corpusOtelDir,
  hasCorpusOtel,
  otelFixtureDir,
  otelRecordings,
  readRecording,
} from '@agentdash/testing/otel-recordings';
import { shuffled } from '@agentdash/testing/otlp-replay';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';
import { resetDerivedData } from '../schema/schema.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshIndex(): AgentIndex {
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-otel-'));
  dirs.push(dir);
  return openIndex({ dbPath: join(dir, 'index.sqlite') });
}

/** Each request's records, in the order sent. */
function requestsOf(dir: string): OtelRecord[][] {
  return readRecording(dir).map((request) => {
    const signal = signalOfOtlpPath(request.path);
    if (signal === null) throw new Error(request.path);
    return [
      ...decodeOtlpRequest({ signal, contentType: request.contentType, contentEncoding: '', body: request.body })
        .records,
    ];
  });
}

/** Independent sums over the decoded events, per session: what the stored figures must equal. */
function sumsOf(records: readonly OtelRecord[]) {
  const sums = new Map<string, { modelMs: number; toolMs: number; apiRequests: number; toolCalls: number }>();
  for (const r of records) {
    if (r.kind !== 'event') continue;
    const sid = attrText(r.attributes, 'session.id');
    const s = sums.get(sid) ?? { modelMs: 0, toolMs: 0, apiRequests: 0, toolCalls: 0 };
    if (r.name === 'api_request') s.apiRequests += 1;
    // a failed request's time is the model's too (as the transcripts' time partition counts it)
    if (r.name === 'api_request' || r.name === 'api_error') s.modelMs += attrNumber(r.attributes, 'duration_ms') ?? 0;
    if (r.name === 'tool_result') {
      s.toolCalls += 1;
      s.toolMs += attrNumber(r.attributes, 'duration_ms') ?? 0;
    }
    sums.set(sid, s);
  }
  return sums;
}

function checkRecordings(base: string) {
  for (const name of otelRecordings) {
    const dir = join(base, name);
    for (const order of ['telemetry first', 'transcripts first'] as const) {
      it(`${name}, ${order}: stored once, every tool_result joins its call, every response its api_request`, async () => {
        const index = freshIndex();
        const requests = requestsOf(dir);
        const all = requests.flat();
        if (order === 'transcripts first') await index.refresh([join(dir, 'claude-home')]);
        const reports = shuffled([...requests, ...requests]).map((records) => index.telemetry.store(records));
        if (order === 'telemetry first') await index.refresh([join(dir, 'claude-home')]);
        const stored = reports.reduce((n, r) => n + r.stored, 0);
        const counts = index.telemetry.counts();
        expect(stored).toBe(counts.events + counts.spans + counts.metrics + counts.unknown);
        expect(counts.spans).toBe(new Set(all.map((r) => (r.kind === 'span' ? r.spanId : ''))).size - 1);
        expect(counts.events).toBe(all.filter((r) => r.kind === 'event').length);
        const joins = index.telemetry.joins();
        // A trimmed recording holds other sessions' records in the requests it keeps: join those with a transcript.
        const withTranscript = index.telemetry
          .telemetrySessionIds()
          .filter((id) => index.telemetry.sessionTelemetry(id)?.hasTranscript);
        const joinedCalls = withTranscript.reduce(
          (n, id) => n + (index.telemetry.sessionTelemetry(id)?.toolCalls ?? 0),
          0,
        );
        expect(joins.toolResultsWithCall).toBe(joinedCalls);
        expect(joinedCalls).toBeGreaterThan(0);
        expect(joins.transcriptRequestsWithApiRequest).toBe(joins.transcriptRequests);
        expect(joins.transcriptRequests).toBeGreaterThan(0);
        const expected = sumsOf(all);
        for (const id of withTranscript) {
          const t = index.telemetry.sessionTelemetry(id);
          const e = expected.get(id);
          expect([id, t?.apiRequests, t?.modelMs, t?.toolCalls, t?.toolMs]).toEqual([
            id,
            e?.apiRequests,
            e?.modelMs,
            e?.toolCalls,
            e?.toolMs,
          ]);
        }
        index.close();
      });
    }
  }
}

describe('telemetry stored and joined (bundled trimmed recordings)', () => checkRecordings(otelFixtureDir));

describe('telemetry is not derived data', () => {
  it('a rebuild of the derived tables keeps every telemetry row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-otel-'));
    dirs.push(dir);
    const dbPath = join(dir, 'index.sqlite');
    let index = openIndex({ dbPath });
    const recording = join(otelFixtureDir, otelRecordings[1]);
    for (const records of requestsOf(recording)) index.telemetry.store(records);
    await index.refresh([join(recording, 'claude-home')]);
    const before = index.telemetry.counts();
    index.close();
    const db = new Database(dbPath);
    resetDerivedData(db);
    expect(db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(0);
    db.close();
    index = openIndex({ dbPath });
    expect(index.telemetry.counts()).toEqual(before);
    expect(before.events).toBeGreaterThan(0);
    index.close();
  });
});

describe('a session seen first through telemetry', () => {
  it('is listed as telemetry-only, then merges with its transcript into one session', async () => {
    const index = freshIndex();
    const dir = join(otelFixtureDir, otelRecordings[1]);
    for (const records of requestsOf(dir)) index.telemetry.store(records);
    const shell = '94b2b53d-c3bb-4ca4-9825-3e3ee0dbcdbe';
    const before = index.telemetry.telemetryOnlySessions().find((s) => s.sessionId === shell);
    expect([before?.hasTranscript, before?.toolCalls, index.listSessions().length]).toEqual([false, 19, 0]);
    expect(before?.tools.map((t) => t.name)).toEqual(['Bash', 'Read', 'TaskStop']);
    await index.refresh([join(dir, 'claude-home')]);
    expect(index.telemetry.telemetryOnlySessions().filter((s) => s.sessionId === shell)).toEqual([]);
    expect(index.listSessions().filter((s) => s.id === shell).length).toBe(1);
    const after = index.telemetry.sessionTelemetry(shell);
    expect([after?.hasTranscript, after?.toolCalls, after?.modelMs]).toEqual([true, 19, before?.modelMs]);
    index.close();
  });
});

const fullTitle = hasCorpusOtel
  ? 'telemetry stored and joined over ../shared/corpus-otel'
  : 'telemetry stored and joined over ../shared/corpus-otel (skipped: ../shared/corpus-otel is not present)';
describe.skipIf(!hasCorpusOtel)(fullTitle, () => {
  checkRecordings(corpusOtelDir);
  it('every tool_result of the JSON recording joins a transcript call (104 of 104)', async () => {
    const index = freshIndex();
    const dir = join(corpusOtelDir, otelRecordings[0]);
    for (const records of requestsOf(dir)) index.telemetry.store(records);
    await index.refresh([join(dir, 'claude-home')]);
    const joins = index.telemetry.joins();
    expect([joins.toolResults, joins.toolResultsWithCall]).toEqual([104, 104]);
    expect([joins.apiRequests, joins.apiRequestsInTranscripts]).toEqual([144, 138]);
    index.close();
  });
});
