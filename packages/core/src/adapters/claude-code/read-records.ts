import { splitGluedObjects } from '../../internal/glued-objects.js';
import { type ReadEnd, type ReadLinesOptions, readLines } from '../../io/read-lines.js';
import type { ParseIssue } from '../../model/issue.js';
import type { RecordEvent } from '../../model/raw.js';
import type { TranscriptRecord } from '../../model/record.js';
import { decodeLine } from './decode-record.js';
import { splitCutRecord } from './split-glued.js';

/**
 * Stream a transcript file as typed records (read lines → decode records), in bounded memory.
 * Bad lines become issues with file and line; unknown record types are `unknown` records (and an issue).
 * Resumable from a byte offset.
 */
export async function streamRecords(
  file: string,
  onEvent: (event: RecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  return readLines(
    file,
    (event) => {
      if (event.kind === 'issue') {
        onEvent(event);
        return;
      }
      const loc = { file, line: event.line, offset: event.offset };
      const decoded = decodeLine(event.text, loc);
      if (decoded.ok) {
        emitRecord(decoded.value, decoded.issues, event.text.length, onEvent);
        return;
      }
      // Two records glued on one line (a client bug): recover each, and say so.
      const parts = decoded.issue.code === 'invalid_json' ? splitGluedObjects(event.text) : undefined;
      if (parts === undefined) {
        // A record cut off, then a whole one on the same line (a write interrupted, then resumed): the whole one kept.
        // Only a record of a kind the client writes: an object nested in the cut one (`{"content":"x"}` of a record
        // cut just after it) is no record.
        const cut = decoded.issue.code === 'invalid_json' ? splitCutRecord(event.text) : undefined;
        const tail = cut === undefined ? undefined : decodeLine(cut.record, loc);
        if (cut === undefined || tail === undefined || !tail.ok || tail.value.kind === 'unknown') {
          onEvent({ kind: 'issue', issue: decoded.issue });
          return;
        }
        onEvent({
          kind: 'issue',
          issue: {
            ...decoded.issue,
            message: `a record cut off after ${cut.cut.length} characters (its write interrupted), then a whole record on the same line: the whole one kept`,
          },
        });
        emitRecord(tail.value, tail.issues, event.text.length, onEvent);
        return;
      }
      onEvent({
        kind: 'issue',
        issue: {
          code: 'glued_records',
          file,
          line: event.line,
          message: `${parts.length} records written on one line; split and kept`,
        },
      });
      parts.forEach((part, index) => {
        const one = decodeLine(part, loc);
        if (one.ok) emitRecord(one.value, one.issues, index === 0 ? event.text.length : 0, onEvent);
        else onEvent({ kind: 'issue', issue: one.issue });
      });
    },
    options,
  );
}

function emitRecord(
  record: TranscriptRecord,
  issues: readonly ParseIssue[] | undefined,
  byteLength: number,
  onEvent: (event: RecordEvent) => void,
): void {
  for (const issue of issues ?? []) onEvent({ kind: 'issue', issue });
  if (record.kind === 'unknown') {
    onEvent({
      kind: 'issue',
      issue: {
        code: 'unknown_record',
        file: record.loc.file,
        line: record.loc.line,
        message: `unknown record type "${record.type}" kept as raw data`,
      },
    });
  }
  onEvent({ kind: 'record', record, byteLength });
}

export interface FileRecords {
  readonly file: string;
  readonly records: TranscriptRecord[];
  readonly issues: ParseIssue[];
  readonly end: ReadEnd;
}

/** Read a whole file into records (for assembling one session; use `streamRecords` for bulk work). */
export async function readRecords(file: string, options: ReadLinesOptions = {}): Promise<FileRecords> {
  const records: TranscriptRecord[] = [];
  const issues: ParseIssue[] = [];
  const end = await streamRecords(
    file,
    (event) => {
      if (event.kind === 'record') records.push(event.record);
      else issues.push(event.issue);
    },
    options,
  );
  return { file, records, issues, end };
}
