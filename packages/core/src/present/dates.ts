/**
 * Dates and times in local time, written the same way in the CLI and the dashboard: the year appears only when it is
 * not the current one, and each date once.
 * @module
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function parse(iso: string | null | undefined): Date | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** `Nov 21` this year, `Nov 21, 2025` another year. */
export function formatDay(iso: string | null | undefined, now: number = Date.now()): string {
  const d = parse(iso);
  if (!d) return '—';
  const day = `${MONTHS[d.getMonth()]} ${d.getDate()}`;
  return d.getFullYear() === new Date(now).getFullYear() ? day : `${day}, ${d.getFullYear()}`;
}

/** `20:27:07`. */
export function formatClock(iso: string | null | undefined): string {
  const d = parse(iso);
  if (!d) return '--:--:--';
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * `Nov 21 20:27` this year, `Nov 21, 2025 20:27` another year; `—` when unknown.
 * @example formatDateTime('2025-03-04T05:06:07Z', Date.parse('2026-01-01')) // 'Mar 4, 2025 05:06' (TZ=UTC)
 */
export function formatDateTime(iso: string | null | undefined, now: number = Date.now()): string {
  const d = parse(iso);
  if (!d) return '—';
  return `${formatDay(iso, now)} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** A range: the end's date is written only when it differs from the start's (`Nov 21 20:27 – 22:10`). */
export function formatRange(
  start: string | null | undefined,
  end: string | null | undefined,
  now: number = Date.now(),
): string {
  const a = parse(start);
  const b = parse(end);
  if (!a) return formatDateTime(end, now);
  if (!b) return formatDateTime(start, now);
  const sameDay = a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  const endText = sameDay ? `${two(b.getHours())}:${two(b.getMinutes())}` : formatDateTime(end, now);
  return `${formatDateTime(start, now)} – ${endText}`;
}

/** `just now`, `5 min ago`, `3 h ago`, `2 d ago`, then the date. */
export function formatRelative(iso: string | null | undefined, now: number = Date.now()): string {
  const d = parse(iso);
  if (!d) return '—';
  const s = Math.round((now - d.getTime()) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 86400 * 7) return `${Math.floor(s / 86400)} d ago`;
  return formatDateTime(iso, now);
}

/**
 * A local calendar day's bound in epoch ms: its first millisecond, or with `end` its last. The one rule of a bare day
 * in a filter (the CLI's --since/--until, the dashboard's date fields): the local day, as times are shown.
 */
export function localDayBoundMs(year: number, month: number, day: number, end: boolean): number {
  return new Date(year, month - 1, day + (end ? 1 : 0)).getTime() - (end ? 1 : 0);
}
