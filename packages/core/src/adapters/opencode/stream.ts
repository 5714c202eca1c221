import type { ReadEnd, ReadLinesOptions } from '../../io/read-lines.js';
import { readLinesReplayed } from '../../io/replay-lines.js';
import type { RecordEvent } from '../../model/raw.js';
import { OpenCodeDecoder } from './decode.js';

/**
 * Stream an OpenCode session snapshot as records. A part needs its message's line (role, model), so a read that
 * resumes at `startOffset` replays the earlier lines without emitting them (snapshots are rewritten whole, so the
 * index reads them from the start anyway).
 */
export function streamOpenCodeRecords(
  path: string,
  subagentId: string | undefined,
  onEvent: (event: RecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const decoder = new OpenCodeDecoder(path, subagentId);
  return readLinesReplayed<RecordEvent>(
    path,
    (text, loc, emit) => decoder.decodeLine(text, loc, emit),
    onEvent,
    options,
  );
}
