import type { ReadEnd, ReadLinesOptions } from '../../io/read-lines.js';
import { readLinesReplayed } from '../../io/replay-lines.js';
import { CodexDecoder, type CodexRecordEvent } from './decode.js';
import { sessionIdOfRollout } from './discover.js';

/**
 * Stream a rollout file as records. Decoding needs the lines before (the model, running token totals, the
 * response a line belongs to), so a resumed read replays the earlier lines without emitting them.
 */
export function streamCodexRecords(
  path: string,
  onEvent: (event: CodexRecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const decoder = new CodexDecoder(path, sessionIdOfRollout(path));
  return readLinesReplayed<CodexRecordEvent>(
    path,
    (text, loc, emit) => decoder.decodeLine(text, loc, emit),
    onEvent,
    options,
  );
}
