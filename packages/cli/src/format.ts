/**
 * The CLI's formatting: the rules come from `@agentdash/core/present`, the module the dashboard uses too.
 */
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
  oneLine as excerpt,
  plural,
  realErrors,
  shortId,
  shortModel,
  sumTokens,
} from '@agentdash/core/present';
