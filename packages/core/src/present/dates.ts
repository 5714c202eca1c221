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
  const parts = rangeParts(start, end, now);
  return parts.length === 1 ? parts[0] : `${parts[0]} – ${parts[1]}`;
}

/**
 * A range's start and end as `formatRange` writes them (`['Nov 21 20:27', '22:10']`), for a page that puts them on
 * lines of their own; one piece when either is unknown.
 */
export function rangeParts(
  start: string | null | undefined,
  end: string | null | undefined,
  now: number = Date.now(),
): readonly [string] | readonly [string, string] {
  const a = parse(start);
  const b = parse(end);
  if (!a) return [formatDateTime(end, now)];
  if (!b) return [formatDateTime(start, now)];
  const sameDay = a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  const endText = sameDay ? `${two(b.getHours())}:${two(b.getMinutes())}` : formatDateTime(end, now);
  return [formatDateTime(start, now), endText];
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
  // set apart: `new Date(50, 0, 1)` is 1950, a year below 100 being read as 19xx there
  const d = new Date(0);
  d.setFullYear(year, month - 1, day + (end ? 1 : 0));
  d.setHours(0, 0, 0, 0);
  return d.getTime() - (end ? 1 : 0);
}

/**
 * {@link localDayBoundMs} of a `YYYY-MM-DD` day in `timeZone` (an IANA name, the browser's the dashboard sends), or in
 * the local time zone without one; undefined for any other text (a time, which is an instant already).
 */
export function dayBoundMs(date: string, end: boolean, timeZone?: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (m === null) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // a day the calendar has not (2025-02-30) is no day
  const asked = new Date(Date.UTC(year, month - 1, day));
  if (asked.getUTCFullYear() !== year || asked.getUTCMonth() !== month - 1 || asked.getUTCDate() !== day)
    return undefined;
  if (timeZone === undefined) return localDayBoundMs(year, month, day, end);
  // The day's first instant (or the next day's, less 1 ms): the wall time of its midnight less the zone's offset,
  // the offset taken at the wall time and again at the instant found. Where the clocks skip that midnight (Santiago,
  // Havana: 00:00 is 01:00) or show it twice, the day starts at the earlier candidate that is on that day.
  const wall = Date.UTC(year, month - 1, day + (end ? 1 : 0));
  const first = wall - zoneOffsetMs(wall, timeZone);
  const second = wall - zoneOffsetMs(first, timeZone);
  const target = new Date(wall).toISOString().slice(0, 10);
  const onDay = [first, second].filter((at) => zoneDate(at, timeZone) === target).sort((a, b) => a - b);
  return (onDay[0] ?? Math.max(first, second)) - (end ? 1 : 0);
}

/** The calendar day (`YYYY-MM-DD`) of an instant in `timeZone`. */
function zoneDate(ms: number, timeZone: string): string {
  const parts = zoneParts(ms, timeZone);
  return `${parts.year}-${two(parts.month)}-${two(parts.day)}`;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `timeZone` at `ms`. */
function zoneParts(ms: number, timeZone: string) {
  let format = offsetFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

/** How far `timeZone`'s clocks are ahead of UTC at `ms`. */
function zoneOffsetMs(ms: number, timeZone: string): number {
  const p = zoneParts(ms, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The local time zone's offset at a time, as a reader elsewhere needs it beside a local time (`UTC`, `UTC+02:00`,
 * `UTC−05:00`: summer or winter time as at that moment); empty when the time is unknown.
 */
export function zoneLabel(iso: string | null | undefined): string {
  const d = parse(iso);
  if (!d) return '';
  const minutes = -d.getTimezoneOffset();
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  return `UTC${minutes > 0 ? '+' : '−'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
