import { isRecord } from '../../internal/guards.js';
import { parseJsonValues } from '../../internal/json-line.js';
import { type ReadEnd, type ReadLinesOptions, readLines } from '../../io/read-lines.js';
import type { ParseIssue, SourceLocation } from '../../model/issue.js';

/** One entry of a Gemini session file, in file order, before it becomes records. */
export type SessionEntry =
  | {
      readonly kind: 'header';
      readonly value: Record<string, unknown>;
      readonly loc: SourceLocation;
      readonly bytes: number;
    }
  | {
      readonly kind: 'set';
      readonly value: Record<string, unknown>;
      readonly loc: SourceLocation;
      readonly bytes: number;
    }
  | {
      readonly kind: 'message';
      value: Record<string, unknown>;
      loc: SourceLocation;
      bytes: number;
      /** Earlier lines of the same message id, replaced by the line at `loc`. */
      readonly superseded: SourceLocation[];
    }
  | { readonly kind: 'other'; readonly value: unknown; readonly loc: SourceLocation; readonly bytes: number }
  | { readonly kind: 'issue'; readonly issue: ParseIssue };

export interface ReadEntries {
  readonly entries: SessionEntry[];
  readonly end: ReadEnd;
}

/**
 * Read a 0.61-style JSONL session whole: a header line, message lines (a later line with the same `id` replaces
 * the earlier one, which keeps its place: a model turn is written first without, then with its tool calls) and
 * `{"$set": …}` update lines. Bad lines are issues. The file is not append-only, so it is always read from the
 * start (`startOffset` is ignored); memory holds the last version of each message, about the file's size.
 */
export async function readJsonlEntries(file: string, options: ReadLinesOptions = {}): Promise<ReadEntries> {
  const entries: SessionEntry[] = [];
  const byId = new Map<string, Extract<SessionEntry, { kind: 'message' }>>();
  const { startOffset: _offset, startLine: _line, ...rest } = options;
  const end = await readLines(
    file,
    (event) => {
      if (event.kind === 'issue') {
        entries.push(event);
        return;
      }
      const loc = { file, line: event.line, offset: event.offset };
      const values = parseJsonValues(event.text, (code, message) =>
        entries.push({ kind: 'issue', issue: { code, file, line: event.line, message } }),
      );
      for (const [index, value] of values.entries()) {
        classify(value, loc, index === 0 ? event.text.length : 0, entries, byId);
      }
    },
    rest,
  );
  return { entries, end };
}

function classify(
  value: unknown,
  loc: SourceLocation,
  bytes: number,
  entries: SessionEntry[],
  byId: Map<string, Extract<SessionEntry, { kind: 'message' }>>,
): void {
  if (!isRecord(value)) {
    entries.push({ kind: 'other', value, loc, bytes });
    return;
  }
  if (isRecord(value.$set) && Object.keys(value).length === 1) {
    entries.push({ kind: 'set', value: value.$set, loc, bytes });
    return;
  }
  if (typeof value.type === 'string' && typeof value.id === 'string') {
    const earlier = byId.get(value.id);
    if (earlier) {
      earlier.superseded.push(earlier.loc);
      earlier.value = value;
      earlier.loc = loc;
      earlier.bytes += bytes;
      return;
    }
    const entry = { kind: 'message' as const, value, loc, bytes, superseded: [] };
    byId.set(value.id, entry);
    entries.push(entry);
    return;
  }
  if (typeof value.type === 'string') {
    entries.push({ kind: 'message', value, loc, bytes, superseded: [] });
    return;
  }
  if (typeof value.sessionId === 'string' && !('type' in value)) {
    entries.push({ kind: 'header', value, loc, bytes });
    return;
  }
  entries.push({ kind: 'other', value, loc, bytes });
}
