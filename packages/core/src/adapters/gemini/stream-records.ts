import { basename } from 'node:path';
import { str } from '../../internal/guards.js';
import { headlessOwnerOf } from '../../io/headless.js';
import type { ReadEnd, ReadLinesOptions } from '../../io/read-lines.js';
import type { ParseIssue } from '../../model/issue.js';
import type { TranscriptRecord } from '../../model/record.js';
import { geminiStreamWriter } from './discover.js';
import { subagentPrompts } from './injected.js';
import { headerRecord, setRecord, supersededRecord } from './meta-records.js';
import { projectPathFromHash, projectPathOf } from './project-path.js';
import { readJsonEntries } from './read-json.js';
import { readJsonlEntries, type SessionEntry } from './read-jsonl.js';
import { clientVersionOf, messageRecords, type ThreadContext } from './records.js';
import { streamGeminiStreamJson } from './stream-json.js';
import type { GeminiRecordEvent } from './types.js';

/** What the reader needs to know of a discovered Gemini file. */
export interface GeminiFileRef {
  readonly path: string;
  readonly projectDir: string;
  readonly role: 'main' | 'subagent';
  readonly sessionId: string | undefined;
  readonly agentId: string | undefined;
  /** Discovery told it a run's stream-json output (`DiscoveredFile.headless`); read from the archive, it is gone. */
  readonly headless?: boolean | undefined;
  /** Its mtime when discovered: a 0.20 document that ends mid-JSON is held back only while it may be being written. */
  readonly mtimeMs?: number;
}

/**
 * Stream a Gemini session file as records, in either layout: `.jsonl` (0.61: header, messages replaced by id,
 * `$set` updates) or `.json` (0.20: one document rewritten in place), or a run's stream-json output. The whole file
 * is read every time (Gemini files are not append-only). Every line or message becomes records or an issue; never throws on bad data.
 */
export async function streamGeminiRecords(
  file: GeminiFileRef,
  onEvent: (event: GeminiRecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  // `--output-format stream-json` output (a CI job's artifact), as discovery told it (or the archive, for a file
  // gone from disk), else by its first line.
  if (file.headless === true || (await headlessOwnerOf(file.path, [geminiStreamWriter])) !== undefined) {
    return streamGeminiStreamJson(file, onEvent, options);
  }
  const document = file.path.endsWith('.json');
  const read = document
    ? await readJsonEntries(file.path, { ...options, modifiedMs: file.mtimeMs })
    : await readJsonlEntries(file.path, options);
  const header = read.entries.find((e): e is Extract<SessionEntry, { kind: 'header' }> => e.kind === 'header');
  const headerSession = header ? str(header.value.sessionId) : undefined;
  const isSubagent = file.role === 'subagent' || (header !== undefined && header.value.kind === 'subagent');
  const messages = read.entries.flatMap((e) => (e.kind === 'message' ? [e.value] : []));
  const ctx: ThreadContext = {
    file: file.path,
    sessionId: file.sessionId ?? headerSession,
    cwd:
      projectPathOf(file.projectDir) ??
      firstDirectory(header?.value.directories) ??
      projectPathFromHash(file.projectDir, messages),
    injected: subagentPrompts(messages),
    subagentId: isSubagent
      ? (file.agentId ?? headerSession ?? basename(file.path).replace(/\.jsonl?$/, ''))
      : undefined,
    foldsTurns: document,
    version: clientVersionOf(messages),
    parent: null,
  };
  for (const entry of read.entries) {
    switch (entry.kind) {
      case 'issue':
        onEvent(entry);
        break;
      case 'header':
        emit(headerRecord(entry.value, entry.loc), entry.bytes, onEvent);
        break;
      case 'set':
        emit(setRecord(entry.value, entry.loc), entry.bytes, onEvent);
        break;
      case 'message':
        for (const loc of entry.superseded) emit(supersededRecord(entry.value, loc), 0, onEvent);
        messageRecords(entry.value, entry.loc, ctx).forEach((record, index) => {
          emit(record, index === 0 ? entry.bytes : 0, onEvent);
        });
        break;
      case 'other':
        emit(
          {
            kind: 'unknown',
            type: '(not a Gemini record)',
            raw: entry.value,
            sessionId: undefined,
            timestamp: undefined,
            loc: entry.loc,
          },
          entry.bytes,
          onEvent,
        );
        break;
      default:
        entry satisfies never;
    }
  }
  const stub = resumeStubIssue(file, headerSession, read.entries);
  if (stub !== undefined) onEvent({ kind: 'issue', issue: stub });
  return read.end;
}

/**
 * A main file that claims the id of a session another file of its folder holds (discovery keys it `<id>@<file>`)
 * and holds no message: the header 0.61 writes when `--resume` starts (its `$set.messages` only repeats the
 * resumed history), left in a file of its own when the minute in the file name has changed since the session's
 * first file (corpus 0.61 `multi`: the first resume's header went into the session's file, the second's into a
 * stub). Said as an issue, by which lists leave the empty session out; the file stays indexed.
 */
function resumeStubIssue(
  file: GeminiFileRef,
  headerSession: string | undefined,
  entries: readonly SessionEntry[],
): ParseIssue | undefined {
  if (file.role !== 'main' || headerSession === undefined) return undefined;
  if (!file.sessionId?.startsWith(`${headerSession}@`)) return undefined;
  if (entries.some((e) => e.kind === 'message' || e.kind === 'other')) return undefined;
  return {
    code: 'resume_stub',
    file: file.path,
    line: 0,
    message: `a header Gemini CLI left when it resumed session ${headerSession}: no message of its own; the session is listed from its other file`,
  };
}

function emit(record: TranscriptRecord, byteLength: number, onEvent: (event: GeminiRecordEvent) => void): void {
  if (record.kind === 'unknown') {
    onEvent({
      kind: 'issue',
      issue: {
        code: 'unknown_record',
        file: record.loc.file,
        line: record.loc.line,
        message: `unknown Gemini entry "${record.type}" kept as raw data`,
      },
    });
  }
  onEvent({ kind: 'record', record, byteLength });
}

function firstDirectory(value: unknown): string | undefined {
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}
