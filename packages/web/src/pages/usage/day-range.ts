/**
 * The days of a chart from its first to its last, those without usage included, so that a bar's place says its
 * date: days with usage alone, side by side, put 2025-06-14 next to 2025-10-26. Past `MAX_DAYS` the days with usage
 * are kept as they are (a bar per day of years would be too thin to see).
 */
export const MAX_DAYS = 400;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** Every date (YYYY-MM-DD) from the first to the last of `dates` (sorted), or `dates` when that span is too long. */
export function dayRange(dates: readonly string[]): readonly string[] {
  const first = dates[0];
  const last = dates[dates.length - 1];
  if (first === undefined || last === undefined) return dates;
  const from = msOf(first);
  const to = msOf(last);
  if (Number.isNaN(from) || Number.isNaN(to) || to < from || (to - from) / DAY_MS + 1 > MAX_DAYS) return dates;
  const out: string[] = [];
  for (let t = from; t <= to; t += DAY_MS) out.push(isoDay(t));
  return out;
}
