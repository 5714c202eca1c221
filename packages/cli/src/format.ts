/**
 * The CLI's formatting: the rules come from `@agentdash/core/present`, the module the dashboard uses too. Text from
 * transcripts goes through `terminalText` (./io.ts) before it is printed: `excerpt` does it first, then cuts.
 */
import { oneLine } from '@agentdash/core/present';
import { terminalText } from './io.js';

export {
  formatBytes,
  formatClock,
  formatCompact,
  formatCost,
  formatCount,
  formatDateTime,
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
  sumTokens,
  uniquePrefixes,
} from '@agentdash/core/present';
export { terminalText };

/** Transcript text as one terminal-safe line of at most `max` characters (made safe before it is cut). */
export const excerpt = (text: string, max?: number): string => oneLine(terminalText(text), max);
