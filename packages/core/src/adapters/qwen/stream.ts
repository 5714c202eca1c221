import type { ReadEnd, ReadLinesOptions } from '../../io/read-lines.js';
import { readLinesReplayed } from '../../io/replay-lines.js';
import type { RecordEvent } from '../../model/raw.js';
import { QwenDecoder } from './decode.js';
import { sessionIdOfQwenFile } from './discover.js';

/**
 * Stream a Qwen Code session file as records. An assistant line's response id is on the telemetry line before it,
 * so a read that resumes at `startOffset` replays the earlier lines without emitting them: what it emits for new
 * lines is exactly what a whole read would have.
 */
export function streamQwenRecords(
  path: string,
  onEvent: (event: RecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const decoder = new QwenDecoder(path, sessionIdOfQwenFile(path));
  return readLinesReplayed<RecordEvent>(
    path,
    (text, loc, emit) => decoder.decodeLine(text, loc, emit),
    onEvent,
    options,
  );
}
