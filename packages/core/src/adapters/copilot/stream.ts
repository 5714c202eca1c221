import { type ReadEnd, type ReadLinesOptions, readLines } from '../../io/read-lines.js';
import type { RecordEvent } from '../../model/raw.js';
import { CopilotDecoder } from './decode.js';
import { sessionIdOfEventsFile } from './discover.js';

/**
 * Stream an `events.jsonl` as records. A result needs its call's start line (the client's own start time), so a
 * read that resumes at `startOffset` replays the earlier lines without emitting them: what it emits for new lines
 * is exactly what a whole read would have.
 */
export async function streamCopilotRecords(
  path: string,
  onEvent: (event: RecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const decoder = new CopilotDecoder(path, sessionIdOfEventsFile(path));
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
