/**
 * The CLI's formatting: the rules come from `@agentdash/core/present`, the module the dashboard uses too. Text from
 * transcripts goes through `terminalText` (./io.ts) before it is printed: `excerpt` does it first, then cuts.
 */
import { oneLine } from '@agentdash/core/present';
import { cutToWidth } from './display-width.js';
import { terminalText } from './io.js';

export {
  documentLines,
  formatBytes,
  formatClock,
  formatCompact,
  formatCost,
  formatCount,
  formatDateTime,
  formatDay,
  formatDuration,
  formatErrors,
  formatPercent,
  formatRange,
  formatTokenLine,
  formatTokens,
  formatToolName,
  plural,
  realErrors,
  shortId,
  shortModel,
  shortRefs,
  sumTokens,
} from '@agentdash/core/present';
export { terminalText };

/**
 * Transcript text as one terminal-safe line of at most `max` terminal columns (made safe before it is cut; cut
 * between graphemes, so a CJK character counts two columns and an emoji or an accented letter is never split).
 */
export const excerpt = (text: string, max = 80): string =>
  cutToWidth(oneLine(terminalText(text), Number.POSITIVE_INFINITY), max);

/** A problem met reading a transcript, on one terminal-safe line: `file:line: code: message`. */
export const issueText = (issue: {
  readonly file: string;
  readonly line: number;
  readonly code: string;
  readonly message: string;
}): string => terminalText(`${issue.file}:${issue.line}: ${issue.code}: ${issue.message}`);
