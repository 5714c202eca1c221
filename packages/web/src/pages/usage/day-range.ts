/**
 * The bars of a chart over days, on a true time axis: one bar per day from the first to the last, those without
 * usage included, so that a bar's place says its date (days with usage alone, side by side, put 2025-06-14 next to
 * 2025-10-26). Past `MAX_DAYS` a bar per day would be too thin to see: the bars are weeks (keyed by their Monday),
 * and past `MAX_DAYS` weeks, months — every one from the first to the last, gaps still visible.
 */
export const MAX_DAYS = 400;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (date: string) => Date.parse(`${date}T00:00:00Z`);

export type BucketUnit = 'day' | 'week' | 'month';

/** The bars of a chart: their unit, every key from the first to the last, and the key a date (YYYY-MM-DD) falls in. */
export interface DayBuckets {
  readonly unit: BucketUnit;
  readonly keys: readonly string[];
  readonly keyOf: (date: string) => string;
}

const mondayOf = (date: string) => {
  const ms = msOf(date);
  return isoDay(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS);
};

function stepKeys(first: string, last: string, step: (ms: number) => number): string[] {
  const out: string[] = [];
  for (let t = msOf(first); t <= msOf(last); t = step(t)) out.push(isoDay(t));
  return out;
}

const nextMonth = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

/** Days, weeks or months from the first to the last of `dates` (sorted YYYY-MM-DD), whichever keeps under MAX_DAYS. */
export function dayBuckets(dates: readonly string[]): DayBuckets {
  const first = dates[0];
  const last = dates[dates.length - 1];
  const asIs: DayBuckets = { unit: 'day', keys: dates, keyOf: (d) => d };
  if (first === undefined || last === undefined) return asIs;
  const from = msOf(first);
  const to = msOf(last);
  if (Number.isNaN(from) || Number.isNaN(to) || to < from) return asIs;
  if ((to - from) / DAY_MS + 1 <= MAX_DAYS) {
    return { unit: 'day', keys: stepKeys(first, last, (t) => t + DAY_MS), keyOf: (d) => d };
  }
  if ((to - from) / (7 * DAY_MS) + 1 <= MAX_DAYS) {
    return { unit: 'week', keys: stepKeys(mondayOf(first), last, (t) => t + 7 * DAY_MS), keyOf: mondayOf };
  }
  const monthOf = (d: string) => `${d.slice(0, 7)}-01`;
  return { unit: 'month', keys: stepKeys(monthOf(first), last, nextMonth), keyOf: monthOf };
}

/**
 * The first day of the last `days` days, today among them, as a local day (`YYYY-MM-DD`): the API takes a day whole
 * in the browser's time zone, so "Last 7 days" is 7 whole days, as many bars (a time `days` × 24 hours back took in
 * part of an eighth day, its bar short of that day's usage).
 */
export function firstOfLastDays(days: number, now: Date = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
  return `${String(d.getFullYear()).padStart(4, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
