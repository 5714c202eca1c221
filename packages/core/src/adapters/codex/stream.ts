import type { ReadEnd, ReadLinesOptions } from '../../io/read-lines.js';
import { readLinesReplayed } from '../../io/replay-lines.js';
import { CodexDecoder } from './decode.js';
import { CodexExecDecoder } from './decode-exec.js';
import type { CodexRecordEvent } from './decode-session.js';
import { isRolloutFile, sessionIdOfRollout } from './discover.js';

/**
 * Stream a rollout file (or `codex exec --json` output) as records. Decoding needs the lines before (the model,
 * running token totals, the response a line belongs to), so a resumed read replays the earlier lines without
 * emitting them.
 */
export function streamCodexRecords(
  path: string,
  onEvent: (event: CodexRecordEvent) => void,
  options: ReadLinesOptions = {},
  discoveredSessionId?: string,
): Promise<ReadEnd> {
  // A file discovery did not name as a rollout is `codex exec --json` output (`headlessStart`).
  const decoder = isRolloutFile(path)
    ? new CodexDecoder(path, sessionIdOfRollout(path))
    : new CodexExecDecoder(path, discoveredSessionId);
  return readLinesReplayed<CodexRecordEvent>(
    path,
    (text, loc, emit) => decoder.decodeLine(text, loc, emit),
    onEvent,
    options,
  );
}
