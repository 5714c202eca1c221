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
