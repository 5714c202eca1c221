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

/** A bucket's length: the server's grains (server/src/stats-response.ts). */
const STEP_MS: Readonly<Record<Granularity, number>> = {
  minute: 5 * 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
};

/** A bucket's start from its label (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`, UTC); NaN for `unknown` (calls without time). */
function startOf(day: string): number {
  // Matched first: Date.parse reads some words as dates ('unknown:00Z' is 2000-01-01).
  const m = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2})?$/.exec(day);
  return m === null ? Number.NaN : Date.parse(`${m[1]}${m[2] ?? 'T00:00'}:00Z`);
}

/** A bucket's label as the server writes it. */
function labelOf(ms: number, granularity: Granularity): string {
  const iso = new Date(ms).toISOString();
  if (granularity === 'day' || granularity === 'week') return iso.slice(0, 10);
  return granularity === 'hour' ? `${iso.slice(0, 13)}:00` : iso.slice(0, 16);
}

/** Every bucket from the first to the last of `rows` (empty ones as zeros), then those without a time. */
export function bucketRange(rows: readonly DayRow[], granularity: Granularity): readonly DayRow[] {
  const step = STEP_MS[granularity];
  const byStart = new Map<number, DayRow>();
  const untimed: DayRow[] = [];
  for (const row of rows) {
    const start = startOf(row.day);
    if (Number.isNaN(start)) untimed.push(row);
    else byStart.set(start, row);
  }
  const starts = [...byStart.keys()].sort((a, b) => a - b);
  const first = starts[0];
  const last = starts[starts.length - 1];
  if (first === undefined || last === undefined || (last - first) / step + 1 > MAX_BUCKETS) return rows;
  const out: DayRow[] = [];
  for (let t = first; t <= last; t += step) {
    out.push(byStart.get(t) ?? { day: labelOf(t, granularity), calls: 0, errors: 0, expectedErrors: 0 });
  }
  return [...out, ...untimed];
}
