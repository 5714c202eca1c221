/**
 * A date or date-time as a person writes one in a filter (the CLI's --since/--until, the API's `since`/`until`),
 * checked against the calendar: one reading for both.
 * @module
 */

/**
 * `2026-01-31` or `20260131`, optionally with a time (`T10:00`, `T10:00:00.000`, ` 10:00`) and a zone (`Z`, `+02:00`,
 * `+0200`, `+02`).
 */
const DATE_TIME = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** Days in a month of the (proleptic) Gregorian calendar. */
function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

export interface CalendarTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** `T10:00:00.000Z`: the time and zone as written (normalized), absent for a day alone. */
  readonly time?: string;
}

/**
 * `raw` read as a day or a date-time: undefined when it is not of that shape; `'not-in-calendar'` when it names a
 * day or time that does not exist (2026-02-30, 2026-13-45, 25:00), which `Date.parse` would quietly roll over into
 * another day or month.
 */
export function calendarTimeOf(raw: string): CalendarTime | 'not-in-calendar' | undefined {
  const m = DATE_TIME.exec(raw.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const realDay = month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (!realDay || hour > 23 || minute > 59 || second > 59) return 'not-in-calendar';
  if (m[4] === undefined) return { year, month, day };
  const zone =
    m[8] === undefined
      ? ''
      : m[8].toUpperCase() === 'Z'
        ? 'Z'
        : m[8].replace(/^([+-]\d{2}):?(\d{2})?$/, (_, h: string, mm?: string) => `${h}:${mm ?? '00'}`);
  return { year, month, day, time: `T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}${zone}` };
}

const two = (n: number) => String(n).padStart(2, '0');

/** The day as ISO text (`2026-01-31`), the year in four digits. */
export const isoDayOf = (t: CalendarTime): string => `${String(t.year).padStart(4, '0')}-${two(t.month)}-${two(t.day)}`;

/** The instant of a date-time (its zone, or the local one without), in epoch ms; undefined for a day alone. */
export function calendarTimeMs(t: CalendarTime): number | undefined {
  if (t.time === undefined) return undefined;
  const ms = Date.parse(`${isoDayOf(t)}${t.time}`);
  return Number.isNaN(ms) ? undefined : ms;
}
