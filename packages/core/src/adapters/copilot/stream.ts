import type { ReadEnd, ReadLinesOptions } from '../../io/read-lines.js';
import { readLinesReplayed } from '../../io/replay-lines.js';
import type { RecordEvent } from '../../model/raw.js';
import { CopilotDecoder } from './decode.js';
import { sessionIdOfEventsFile } from './discover.js';

/**
 * Stream an `events.jsonl` as records. A result needs its call's start line (the client's own start time), so a
 * resumed read replays the earlier lines without emitting them.
 */
export function streamCopilotRecords(
  path: string,
  onEvent: (event: RecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const decoder = new CopilotDecoder(path, sessionIdOfEventsFile(path));
  return readLinesReplayed<RecordEvent>(
    path,
    (text, loc, emit) => decoder.decodeLine(text, loc, emit),
    onEvent,
    options,
  );
}
