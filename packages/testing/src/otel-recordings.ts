/**
 * Recorded OTLP exports (`corpus-otel` layout: `otlp.jsonl` of `{t, path, contentType, body}` beside the
 * `claude-home` of the same sessions), read back as the exact request bytes the client sent. Shared by the core,
 * index and server telemetry suites.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attrNumber, attrText, type OtelRecord, type OtelSpan } from '@agentdash/core';
import { repoRoot } from './shared.js';

export const corpusOtelDir = join(repoRoot, '../shared/corpus-otel');
export const hasCorpusOtel = existsSync(corpusOtelDir);
/** Trimmed copies bundled with core (`scripts/make-otel-fixtures.mjs`): the probe and shell sessions. */
export const otelFixtureDir = join(repoRoot, 'packages/core/test/fixtures/otel');
export const otelRecordings = ['2.1.332-json', '2.1.332-protobuf'] as const;

export interface RecordedRequest {
  readonly t: string;
  readonly path: '/v1/logs' | '/v1/traces' | '/v1/metrics';
  readonly contentType: string;
  /** The body as sent: the JSON text re-serialised (OTLP/JSON), the exact bytes (OTLP/protobuf). */
  readonly body: Uint8Array;
}

export function readRecording(dir: string): RecordedRequest[] {
  return readFileSync(join(dir, 'otlp.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { t, path, contentType, body } = JSON.parse(line) as RecordedRequest & { body: unknown };
      const bytes =
        typeof body === 'string'
          ? new Uint8Array(Buffer.from(body, 'base64'))
          : new TextEncoder().encode(JSON.stringify(body));
      return { t, path, contentType, body: bytes };
    });
}

/** The recordings a suite runs over: the full corpus when present, else the bundled trimmed copies. */
export function recordingDirs(): { readonly name: string; readonly dir: string; readonly full: boolean }[] {
  const base = hasCorpusOtel ? corpusOtelDir : otelFixtureDir;
  return otelRecordings.map((name) => ({ name, dir: join(base, name), full: hasCorpusOtel }));
}

/**
 * Codex CLI and Gemini CLI recordings (scripts/record/codex|gemini, trimmed by scripts/make-agent-otel-fixtures.mjs):
 * the transcripts under `home`, the export requests' exact bytes in `otlp.jsonl`.
 */
export const agentOtelRecordings = [
  { name: 'codex-0.171.0-json', agent: 'codex', home: 'codex-home' },
  { name: 'codex-0.171.0-protobuf', agent: 'codex', home: 'codex-home' },
  { name: 'gemini-0.61.0-json', agent: 'gemini', home: 'gemini-home' },
] as const;

export interface ClientSums {
  apiRequests: number;
  modelMs: number;
  toolCalls: number;
  toolMs: number;
  callIds: string[];
}

function spanMs(span: OtelSpan): number {
  return Number((BigInt(span.endUnixNano) - BigInt(span.startUnixNano)) / 1000n) / 1000;
}

/**
 * The client's own durations per session, read with its own names (not through core's mapping): Codex's
 * `codex.api_request` (HTTP status below 400) and `codex.tool_result` by `conversation.id`; Gemini's
 * `gemini_cli.api_response` and its `tool_call` spans by `session.id` / `gen_ai.conversation.id`.
 */
export function clientSums(agent: 'codex' | 'gemini', records: readonly OtelRecord[]): Map<string, ClientSums> {
  const sums = new Map<string, ClientSums>();
  const at = (id: string): ClientSums => {
    const s = sums.get(id) ?? { apiRequests: 0, modelMs: 0, toolCalls: 0, toolMs: 0, callIds: [] };
    sums.set(id, s);
    return s;
  };
  for (const r of records) {
    if (r.kind === 'event' && agent === 'codex') {
      const s = at(attrText(r.attributes, 'conversation.id'));
      if (r.name === 'codex.api_request' && (attrNumber(r.attributes, 'http.response.status_code') ?? 0) < 400) {
        s.apiRequests += 1;
        s.modelMs += attrNumber(r.attributes, 'duration_ms') ?? 0;
      }
      if (r.name === 'codex.tool_result') {
        s.toolCalls += 1;
        s.toolMs += attrNumber(r.attributes, 'duration_ms') ?? 0;
        s.callIds.push(attrText(r.attributes, 'call_id'));
      }
    }
    if (r.kind === 'event' && agent === 'gemini' && r.name === 'gemini_cli.api_response') {
      const s = at(attrText(r.attributes, 'session.id'));
      s.apiRequests += 1;
      s.modelMs += attrNumber(r.attributes, 'duration_ms') ?? 0;
    }
    if (r.kind === 'span' && agent === 'gemini' && r.name === 'tool_call') {
      const s = at(attrText(r.attributes, 'gen_ai.conversation.id'));
      s.toolCalls += 1;
      s.toolMs += spanMs(r);
      s.callIds.push(attrText(r.attributes, 'gen_ai.tool.call_id'));
    }
  }
  sums.delete('');
  return sums;
}

/** Whether `value` is an OTLP attribute `{ key: 'event.timestamp', value }` (a log record's own time, as text). */
const isTimestampAttribute = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { key?: unknown }).key === 'event.timestamp';

/**
 * An OTLP/JSON body with every time left out (`timeUnixNano`, `observedTimeUnixNano`, `startTimeUnixNano`,
 * `endTimeUnixNano`, and each `event.timestamp` attribute): what an exporter that writes no times sends.
 */
export function withoutOtlpTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !isTimestampAttribute(v)).map(withoutOtlpTimes);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !/TimeUnixNano$|^timeUnixNano$/.test(key))
      .map(([key, v]) => [key, withoutOtlpTimes(v)]),
  );
}
