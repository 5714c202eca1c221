import { type ReadEnd, type ReadLinesOptions, readLines } from '../../io/read-lines.js';
import type { RecordEvent } from '../../model/raw.js';
import { OpenCodeDecoder } from './decode.js';

/**
 * Stream an OpenCode session snapshot as records. A part needs its message's line (role, model), so a read that
 * resumes at `startOffset` replays the earlier lines without emitting them (snapshots are rewritten whole, so the
 * index reads them from the start anyway).
 */
export async function streamOpenCodeRecords(
  path: string,
  subagentId: string | undefined,
  onEvent: (event: RecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const decoder = new OpenCodeDecoder(path, subagentId);
  const from = options.startOffset ?? 0;
  const end = await readLines(
    path,
    (event) => {
      if (event.kind === 'issue') {
        if (event.issue.line === 0 || event.issue.line >= (options.startLine ?? 1)) onEvent(event);
        return;
      }
      const loc = { file: path, line: event.line, offset: event.offset };
      decoder.decodeLine(event.text, loc, event.offset >= from ? onEvent : ignore);
    },
    { ...options, startOffset: 0, startLine: 1 },
  );
  return { ...end, bytesRead: Math.max(0, end.bytesRead - from) };
}

function ignore(): void {}
