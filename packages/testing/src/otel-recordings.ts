/**
 * Recorded OTLP exports (`corpus-otel` layout: `otlp.jsonl` of `{t, path, contentType, body}` beside the
 * `claude-home` of the same sessions), read back as the exact request bytes the client sent. Shared by the core,
 * index and server telemetry suites.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  attrNumber,
  attrText,
  decodeOtlpRequest,
  type OtelRecord,
  type OtelSpan,
  signalOfOtlpPath,
  telemetrySessionId,
} from '@agentdash/core';
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
 * `codex.api_request` (requests: an HTTP status below 400; model time: every one, a failed request's time being the
 * model's) and `codex.tool_result` by `conversation.id`; Gemini's `gemini_cli.api_response` (and, for model time,
 * `gemini_cli.api_error`) and its `tool_call` spans by `session.id` / `gen_ai.conversation.id`.
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
      if (r.name === 'codex.api_request') {
        if ((attrNumber(r.attributes, 'http.response.status_code') ?? 0) < 400) s.apiRequests += 1;
        s.modelMs += attrNumber(r.attributes, 'duration_ms') ?? 0;
      }
      if (r.name === 'codex.tool_result') {
        s.toolCalls += 1;
        s.toolMs += attrNumber(r.attributes, 'duration_ms') ?? 0;
        s.callIds.push(attrText(r.attributes, 'call_id'));
      }
    }
    if (r.kind === 'event' && agent === 'gemini' && /^gemini_cli\.api_(response|error)$/.test(r.name)) {
      const s = at(attrText(r.attributes, 'session.id'));
      if (r.name === 'gemini_cli.api_response') s.apiRequests += 1;
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

/** The bundled 2.1.332-json recording's sessions: the probe began first, the shell (Bash calls) 51 s later. */
export const PROBE_SESSION = '6e43729b-c50a-4273-8b12-a6d12e807839';
export const SHELL_SESSION = '38ec88f3-0d58-4209-9ff9-b12b8004928d';
/** `undatedExport`'s copy of the probe's events, none with a time. */
export const UNDATED_SESSION = '0d47e000-0000-4000-8000-00000000d47e';

/**
 * Three telemetry-only sessions from the bundled 2.1.332-json recording, for the rule that an unknown time is never
 * 0 (1970): the shell session with every other request's times left out (its first among them: dated and undated
 * records), the probe session whole (all dated, and begun before the shell's first dated record), and the probe's
 * events with every time left out under `UNDATED_SESSION` (none dated). Newest first they are shell, probe, the copy.
 * `shellFirstMs`/`shellLastMs`: the first and last time of the shell's records sent with one.
 */
export function undatedExport(): {
  readonly requests: readonly RecordedRequest[];
  readonly shellFirstMs: number;
  readonly shellLastMs: number;
} {
  const json = (r: RecordedRequest): unknown => JSON.parse(new TextDecoder().decode(r.body));
  const as = (r: RecordedRequest, body: unknown): RecordedRequest => ({
    ...r,
    body: new TextEncoder().encode(JSON.stringify(body)),
  });
  const all = readRecording(join(otelFixtureDir, '2.1.332-json'));
  const of = (id: string) => all.filter((r) => new TextDecoder().decode(r.body).includes(id));
  const shell = of(SHELL_SESSION).map((r, i) => ({ r, dated: i % 2 === 1 }));
  const copy = of(PROBE_SESSION)
    .filter((r) => r.path === '/v1/logs')
    .map((r) =>
      as(r, JSON.parse(JSON.stringify(withoutOtlpTimes(json(r))).replaceAll(PROBE_SESSION, UNDATED_SESSION))),
    );
  const times = shell
    .filter((s) => s.dated)
    .flatMap(({ r }) => decodeRecorded(r))
    .flatMap((e) => (e.kind === 'event' && telemetrySessionId(e.attributes) === SHELL_SESSION ? [e.timeMs] : []));
  return {
    requests: [
      ...of(PROBE_SESSION),
      ...shell.map(({ r, dated }) => (dated ? r : as(r, withoutOtlpTimes(json(r))))),
      ...copy,
    ],
    shellFirstMs: Math.min(...times),
    shellLastMs: Math.max(...times),
  };
}

/** A recorded request's records, decoded as a receiver decodes them. */
export function decodeRecorded(r: RecordedRequest): readonly OtelRecord[] {
  const signal = signalOfOtlpPath(r.path);
  if (signal === null) throw new Error(`not an OTLP path: ${r.path}`);
  return decodeOtlpRequest({ signal, contentType: r.contentType, contentEncoding: '', body: r.body }).records;
}
