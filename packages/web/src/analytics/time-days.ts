import type { UsageResponse } from '../data/types';
import { type BucketUnit, dayBuckets } from '../pages/usage/day-range';
import { TIME_PARTS } from '../ui/TimeBar';

// Idle time is left out of the days: one session left open for weeks would flatten every other day.
export const ACTIVE_PARTS = TIME_PARTS.filter((p) => p.key !== 'idleMs');

/** One bar: its first date and the hours of each active part (model, tools, you). */
export type TimeDayRow = { readonly date: string } & Record<(typeof ACTIVE_PARTS)[number]['key'], number>;

/**
 * The bars of "where the time went, by day" on a time axis: every day from the first to the last, the days without
 * activity as zeros, so that a bar's place says its date (the answer lists the days with activity only, and a bar
 * chart draws them side by side: a gap of months read as one day). Over a long span, weeks or months, as the Usage
 * page's daily chart (`dayBuckets`), so the bars stay few enough to see.
 */
export function timeDayRows(byDay: UsageResponse['time']['byDay']): {
  readonly rows: readonly TimeDayRow[];
  readonly unit: BucketUnit;
} {
  const buckets = dayBuckets(byDay.map((d) => d.date).sort());
  const rows = new Map(
    buckets.keys.map((date) => [date, { date, modelMs: 0, toolMs: 0, userMs: 0 } as { date: string } & TimeDayRow]),
  );
  for (const d of byDay) {
    const row = rows.get(buckets.keyOf(d.date));
    if (row === undefined) continue;
    for (const p of ACTIVE_PARTS) row[p.key] += d[p.key] / 3_600_000;
  }
  return { rows: [...rows.values()], unit: buckets.unit };
}
