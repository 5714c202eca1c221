/**
 * One duration formatter for the CLI and the dashboard.
 *
 * The value is rounded to the smallest unit shown *before* it is split into units, so a lower unit never reads 60
 * (never `26 min 60 s`, never `1 h 60 min`), and the CLI and the web round the same way.
 * @module
 */
import { timestampMs } from '../model/ids.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * `340 ms`, `2.3 s`, `42 s`, `1 min 5 s`, `18 h 14 min`, `4 d 9 h`; `—` when unknown or negative.
 * @example formatDuration(1_619_700) // '27 min' (26 min 59.7 s rounds up to the minute, never '26 min 60 s')
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  if (ms < 9.95 * SECOND) return `${(ms / SECOND).toFixed(1)} s`;
  if (ms < 59.5 * SECOND) return `${Math.round(ms / SECOND)} s`;
  if (ms < 59.5 * MINUTE) {
    const s = Math.round(ms / SECOND);
    return units(Math.floor(s / 60), 'min', s % 60, 's');
  }
  if (ms < 47.5 * HOUR) {
    const m = Math.round(ms / MINUTE);
    return units(Math.floor(m / 60), 'h', m % 60, 'min');
  }
  const h = Math.round(ms / HOUR);
  return units(Math.floor(h / 24), 'd', h % 24, 'h');
}

function units(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small === 0 ? `${big} ${bigUnit}` : `${big} ${bigUnit} ${small} ${smallUnit}`;
}

/** Duration between two ISO timestamps; undefined when either is missing or unreadable. */
export function spanMs(start: string | null | undefined, end: string | null | undefined): number | undefined {
  if (!start || !end) return undefined;
  const a = timestampMs(start);
  const b = timestampMs(end);
  return a === undefined || b === undefined ? undefined : Math.max(0, b - a);
}

/**
 * Whether a session copied another session's conversation (a fork or resume: another id, responses copied), so its
 * wall time is its own records' after it (the index's `own_from_ms`): what `show` and the session header say.
 */
export function timeIsOwn(
  copiedFrom: readonly { readonly sameSession: boolean; readonly responses: number }[],
): boolean {
  return copiedFrom.some((from) => !from.sameSession && from.responses > 0);
}
