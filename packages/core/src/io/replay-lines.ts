import type { ParseIssue, SourceLocation } from '../model/issue.js';
import { type ReadEnd, type ReadLinesOptions, readLines } from './read-lines.js';

/** Decodes one line; what it emits goes to `emit`. */
export type LineDecoder<E> = (text: string, loc: SourceLocation, emit: (event: E) => void) => void;

/**
 * Reads a file whose lines decode only in the light of the lines before them (a model named earlier, running token
 * totals, a call's start line for its result): a read that resumes at `startOffset` decodes every earlier line again
 * without emitting what they give, so what it emits for the new lines is exactly what a whole read would have. Issues
 * of replayed lines are not reported again (they were when those lines were new), except that of a last line read
 * before that has since gone on without its newline: the read holds it back again and reports it once left alone.
 */
export async function readLinesReplayed<E>(
  path: string,
  decodeLine: LineDecoder<E>,
  onEvent: (event: E | { readonly kind: 'issue'; readonly issue: ParseIssue }) => void,
  options: ReadLinesOptions = {},
): Promise<ReadEnd> {
  const from = options.startOffset ?? 0;
  const startLine = options.startLine ?? 1;
  let lastReplayed: ParseIssue | undefined;
  const end = await readLines(
    path,
    (event) => {
      if (event.kind === 'issue') {
        if (event.issue.line === 0 || event.issue.line >= startLine) onEvent(event);
        else lastReplayed = event.issue;
        return;
      }
      const loc = { file: path, line: event.line, offset: event.offset };
      decodeLine(event.text, loc, event.offset >= from ? onEvent : ignore);
    },
    { ...options, startOffset: 0, startLine: 1 },
  );
  // The last line an earlier read took went on without its newline: held back again (the end is at that line), and
  // what the read says of it (held past the settle window) is new.
  if (lastReplayed !== undefined && lastReplayed.line >= end.nextLine) onEvent({ kind: 'issue', issue: lastReplayed });
  return { ...end, bytesRead: Math.max(0, end.bytesRead - from) };
}

function ignore(): void {}
