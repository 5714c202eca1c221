/**
 * The date fields' days as instants of the browser's day: its first millisecond for "from", its last for "to". The
 * server reads a bare date as a UTC day; the list shows local times, and the CLI's --since/--until take local days.
 */
export function localDayInstant(day: string, end: boolean): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (m === null) return day;
  const start = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + (end ? 1 : 0));
  return new Date(start.getTime() - (end ? 1 : 0)).toISOString();
}
