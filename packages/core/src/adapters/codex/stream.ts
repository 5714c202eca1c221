import { type ReadEnd, type ReadLinesOptions, readLines } from '../../io/read-lines.js';
import { CodexDecoder, type CodexRecordEvent } from './decode.js';
import { sessionIdOfRollout } from './discover.js';

/**
 * Stream a rollout file as records. Decoding needs the lines before (the model, running token totals, the
 * response a line belongs to), so a read that resumes at `startOffset` replays the earlier lines without emitting
 * them: what it emits for new lines is exactly what a whole read would have emitted for them.
 */
export async function streamCodexRecords(
  path: string,
  onEvent: (event: CodexRecordEvent) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const decoder = new CodexDecoder(path, sessionIdOfRollout(path));
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
