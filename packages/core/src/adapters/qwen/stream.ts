import { type ReadEnd, type ReadLinesOptions, readLines } from '../../io/read-lines.js';
import type { RecordEvent } from '../../model/raw.js';
import { QwenDecoder } from './decode.js';
import { sessionIdOfQwenFile } from './discover.js';

/**
 * Stream a Qwen Code session file as records. An assistant line's response id is on the telemetry line before it,
 * so a read that resumes at `startOffset` replays the earlier lines without emitting them: what it emits for new
 * lines is exactly what a whole read would have.
 */
export async function streamQwenRecords(
  path: string,
  onEvent: (event: RecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const decoder = new QwenDecoder(path, sessionIdOfQwenFile(path));
  const from = options.startOffset ?? 0;
  const end = await readLines(
    path,
    (event) => {
      if (event.kind === 'issue') {
        // Issues of replayed lines were reported when those lines were new.
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
