/**
 * A session's export in any format, written a batch at a time as the download reads it (the server runs it in its
 * session worker, so a big session's export never blocks the event loop).
 * @module
 */
import type { Session, SessionStream } from '@agentdash/core';
import { redactSession } from '@agentdash/core/secrets';
import {
  type ExportFormat,
  envelopeLines,
  envelopeStreamLines,
  jsonLines,
  markdownChunks,
  markdownSourceOfStream,
} from './export-formats.js';
import { exportRedaction, readExportAssets, sessionHtmlChunks } from './export-html.js';
import { streamHtmlChunks } from './export-html-stream.js';
import { redactedParts, redactionOfStream, sameParts, sessionJsonChunks } from './session-json.js';

/** An export being written: its text a batch at a time (undefined once done). */
export interface SessionExport {
  /** Secrets redacted (0 when not asked to redact). */
  readonly redacted: number;
  next(): Promise<string | undefined>;
  /** Stop early (the download was cancelled). */
  close(): void;
}

/** What each format is sent as, and the file name's extension. */
export const exportMedia = {
  html: { type: 'text/html; charset=utf-8', ext: 'html' },
  markdown: { type: 'text/markdown; charset=utf-8', ext: 'md' },
  json: { type: 'application/json; charset=utf-8', ext: 'json' },
  envelope: { type: 'application/x-ndjson; charset=utf-8', ext: 'jsonl' },
} as const satisfies Record<ExportFormat, { type: string; ext: string }>;

/** Text per batch of an export (chunks joined up to about this many characters). */
const BATCH = 1 << 20;

/**
 * The export of a loaded session in `format`, secrets redacted when `redact`; `summary` is the index's row (the HTML
 * header), `assetsDir` holds the built viewer (HTML only).
 */
export async function openSessionExport(
  session: Session,
  format: ExportFormat,
  summary: unknown,
  assetsDir: string,
  redact: boolean,
): Promise<SessionExport> {
  const assets = format === 'html' ? await readExportAssets(assetsDir) : undefined;
  const redacted = redact ? redactSession(session) : undefined;
  const shown = redacted?.session ?? session;
  const chunks = assets
    ? sessionHtmlChunks(shown, summary, assets, exportRedaction(redact, redacted?.report))
    : format === 'markdown'
      ? markdownChunks(shown)
      : format === 'envelope'
        ? envelopeLines(shown)
        : jsonLines(shown);
  return batched(redacted?.report.total ?? 0, chunks);
}

/** The formats written from a streamed session (`openStreamExport`): all of them. */
export const streamedFormats: ReadonlySet<ExportFormat> = new Set(['json', 'envelope', 'markdown', 'html']);

/**
 * `openSessionExport` of a session read as it is written: the same text, in memory that does not grow with the
 * session, for a session not loaded already.
 */
export async function openStreamExport(
  stream: SessionStream,
  format: ExportFormat,
  summary: unknown,
  assetsDir: string,
  redact: boolean,
): Promise<SessionExport> {
  const assets = format === 'html' ? await readExportAssets(assetsDir) : undefined;
  const redaction = redact ? await redactionOfStream(stream) : undefined;
  const parts = redaction ? redactedParts(redaction.found) : sameParts;
  async function* text(): AsyncGenerator<string, void, undefined> {
    if (assets) {
      yield* streamHtmlChunks(stream, parts, summary, assets, exportRedaction(redact, redaction?.report));
      return;
    }
    if (format === 'markdown') {
      yield* markdownChunks(await markdownSourceOfStream(stream, parts));
      return;
    }
    if (format === 'envelope') {
      yield* envelopeStreamLines(stream.calls(), parts.call);
      return;
    }
    yield* sessionJsonChunks(stream, parts);
    yield '\n';
  }
  return batched(redaction?.report.total ?? 0, text());
}

/** An export's pieces a batch of about `BATCH` characters at a time. */
function batched(
  redacted: number,
  chunks: Generator<string, void, undefined> | AsyncGenerator<string, void, undefined>,
): SessionExport {
  return {
    redacted,
    next: async () => {
      const batch: string[] = [];
      let size = 0;
      while (size < BATCH) {
        const chunk = await chunks.next();
        if (chunk.done) break;
        batch.push(chunk.value);
        size += chunk.value.length;
      }
      return size === 0 ? undefined : batch.join('');
    },
    close: () => void chunks.return(),
  };
}
