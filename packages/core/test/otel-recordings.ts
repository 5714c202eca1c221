/**
 * Recorded OTLP exports (`corpus-otel` layout: `otlp.jsonl` of `{t, path, contentType, body}` beside the
 * `claude-home` of the same sessions), read back as the exact request bytes the client sent. Shared by the core,
 * index and server telemetry suites.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './helpers.js';

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
