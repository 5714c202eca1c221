/**
 * The Analytics time chart's buckets from the first to the last, the empty ones as zeros, so that a bar's place says
 * its time: the server sends the buckets with calls only, and a bar chart places them side by side, so 10:00, 10:05
 * and 16:40 stood at equal distances. Recharts' bar chart places bars by category (a number axis gives a bar no width
 * to go by), so the gaps are filled, as the Usage page's daily chart does (usage/day-range.ts). Past `MAX_BUCKETS`
 * (weeks over more than seven years: the server takes weeks past a year) the buckets are kept as they are: a bar each
 * would be too thin to see.
 */
import type { DayRow, StatsResponse } from '../../data/types';

export const MAX_BUCKETS = 400;

type Granularity = StatsResponse['granularity'];

/**
 * The server's grains (server/src/stats-response.ts): a bucket's length, whether its label is a date alone, and what
 * the chart says a bar is.
 */
export const GRAINS: Readonly<Record<Granularity, { stepMs: number; dateOnly: boolean; hint: string }>> = {
  minute: { stepMs: 5 * 60_000, dateOnly: false, hint: '5 minutes' },
  hour: { stepMs: 3_600_000, dateOnly: false, hint: 'hour' },
  day: { stepMs: 86_400_000, dateOnly: true, hint: 'day' },
  week: { stepMs: 7 * 86_400_000, dateOnly: true, hint: 'week, from Monday' },
};

/**
 * A bucket's place on the axis from its label (`YYYY-MM-DDTHH:MM`, UTC; a day's or week's `YYYY-MM-DD`, a date of the
 * browser's zone, placed at its UTC midnight: calendar steps, no daylight-saving shifts); NaN for `unknown`.
 */
function startOf(day: string): number {
  // Matched first: Date.parse reads some words as dates ('unknown:00Z' is 2000-01-01).
  const m = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2})?$/.exec(day);
  return m === null ? Number.NaN : Date.parse(`${m[1]}${m[2] ?? 'T00:00'}:00Z`);
}

/** A bucket's label as the server writes it (an hour's starts at minute 00). */
function labelOf(ms: number, granularity: Granularity): string {
  return new Date(ms).toISOString().slice(0, GRAINS[granularity].dateOnly ? 10 : 16);
}

/**
 * A bucket's label on the chart's axis: its date, else its month, day and time (`MM-DD HH:MM`) in `timeZone` (the
 * browser's, as the rest of the page: the server's 5-minute and hour buckets start on the UTC clock, and their start
 * is the same instant in every zone; its days and weeks are already the browser's zone's, asked with `tz`).
 */
export function axisLabelOf(day: string, granularity: Granularity, timeZone?: string): string {
  if (GRAINS[granularity].dateOnly) return day;
  const start = startOf(day);
  if (Number.isNaN(start)) return day.replace('T', ' ').slice(5);
  const parts = Object.fromEntries(
    axisFormat(timeZone)
      .formatToParts(start)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** The axis labels' format in a zone, made once per zone (a chart labels every bucket). */
const axisFormats = new Map<string | undefined, Intl.DateTimeFormat>();
function axisFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  let format = axisFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    axisFormats.set(timeZone, format);
  }
  return format;
}

/**
 * Every bucket from the first to the last of `rows` (empty ones as zeros). The calls without a time (`unknown`) have
 * no place on a time axis: they are left out here and counted by `untimedCalls` (drawn last, they read as a date).
 */
export function bucketRange(rows: readonly DayRow[], granularity: Granularity): readonly DayRow[] {
  const step = GRAINS[granularity].stepMs;
  const byStart = new Map<number, DayRow>();
  for (const row of rows) {
    const start = startOf(row.day);
    if (!Number.isNaN(start)) byStart.set(start, row);
  }
  const starts = [...byStart.keys()].sort((a, b) => a - b);
  const first = starts[0];
  const last = starts[starts.length - 1];
  if (first === undefined || last === undefined) return [];
  if ((last - first) / step + 1 > MAX_BUCKETS) return starts.map((t) => byStart.get(t) as DayRow);
  const out: DayRow[] = [];
  for (let t = first; t <= last; t += step) {
    out.push(byStart.get(t) ?? { day: labelOf(t, granularity), calls: 0, errors: 0, expectedErrors: 0 });
  }
  return out;
}

/** The calls of `rows` without a time (the `unknown` bucket). */
export function untimedCalls(rows: readonly DayRow[]): number {
  return rows.reduce((n, row) => (Number.isNaN(startOf(row.day)) ? n + row.calls : n), 0);
}
