/**
 * The dashboard's formatting: every rule comes from `@agentdash/core/present`, the module the CLI uses too, so both
 * show the same figures in the same words. The `fmt*` names are kept for the pages that import them.
 */
import {
  formatBytes,
  formatClock,
  formatCompact,
  formatCost,
  formatDateTime,
  formatDuration,
  formatPercent,
  formatRelative,
  realErrors,
} from '@agentdash/core/present';

export {
  baseName,
  callDetail,
  costGapsNote,
  errorsTone,
  formatErrors,
  formatTokenParts,
  formatToolName,
  formatTypedChars,
  nounFor,
  rangeParts,
  realErrors,
  shortPath,
  sumTokens,
  type Tone,
} from '@agentdash/core/present';

export const fmtDuration = formatDuration;
export const fmtNumber = formatCompact;
export const fmtBytes = formatBytes;
export const fmtPercent = formatPercent;
export const fmtDate = formatDateTime;
export const fmtCost = formatCost;
/**
 * A cost for a table's cell: its ` + ?` (prices missing for part of it) kept together, on a line of its own when the
 * cell is narrow (a phone: `$162.84 + ?` on one line pushed the Cost column out of its card).
 */
export const fmtCostCell: typeof formatCost = (cost, gaps) => formatCost(cost, gaps).replace(/ \+ \?$/, ' +\u00a0?');
/** The error rate the dashboard shows: errors not expected over calls (0 without calls). */
export const realErrorRate = (c: { calls: number; errors: number; expectedErrors: number }): number =>
  c.calls > 0 ? realErrors(c) / c.calls : 0;
/**
 * A bar of calls stacked by outcome, each call once: ok, real errors, expected errors (`errors` counts the expected
 * ones too, as the API gives it).
 */
export const outcomeStack = (c: { calls: number; errors: number; expectedErrors: number }) => ({
  okCalls: c.calls - c.errors,
  realErrors: realErrors(c),
  expectedErrors: c.expectedErrors,
});
/** `5 min ago`, `3 h ago`, `2 d ago` within a week; undefined beyond (the date says it then, once). */
export function fmtRecent(iso: string | null | undefined, now = Date.now()): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t) || now - t >= 86400 * 7 * 1000) return undefined;
  return formatRelative(iso, now);
}

/**
 * A time in ms since the epoch as ISO text; undefined when unknown. Telemetry whose records carry no time holds 0
 * for them (OpenTelemetry's "unset"), which would read as Jan 1, 1970: no session ever ran then.
 */
export function knownTimeIso(ms: number | null | undefined): string | undefined {
  return ms === null || ms === undefined || !Number.isFinite(ms) || ms <= 0 ? undefined : new Date(ms).toISOString();
}

/** `20:27:07`; empty when unknown. */
export function fmtTime(iso: string | null | undefined): string {
  return iso ? formatClock(iso).replace('--:--:--', '') : '';
}

export type Obj = Readonly<Record<string, unknown>>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
export const arr = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);
