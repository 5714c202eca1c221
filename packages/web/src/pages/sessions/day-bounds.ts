import { localDayBoundMs } from '@agentdash/core/present';

/**
 * The date fields' days as instants of the browser's day: its first millisecond for "from", its last for "to". The
 * server reads a bare date as a UTC day; the list shows local times, and the CLI's --since/--until take local days.
 */
export function localDayInstant(day: string, end: boolean): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (m === null) return day;
  return new Date(localDayBoundMs(Number(m[1]), Number(m[2]), Number(m[3]), end)).toISOString();
}

/**
 * Whether "from" is after "to" (both given): a window nothing can be in, almost surely the two swapped. The list says
 * so instead of only "No session matches", as the CLI refuses `--since` after `--until`.
 */
export function datesSwapped(since: string, until: string): boolean {
  if (since === '' || until === '') return false;
  const from = Date.parse(localDayInstant(since, false));
  const to = Date.parse(localDayInstant(until, true));
  return Number.isFinite(from) && Number.isFinite(to) && from > to;
}
