// Linux's /proc as the bench scripts read it: one parse of a stat file for every script that counts CPU.
import { readFileSync } from 'node:fs';

/** USER_HZ: the clock ticks per second /proc's stat files count in (100 on Linux). */
export const TICKS = 100;

/**
 * The fields of a stat file (`/proc/PID/stat`, `/proc/PID/task/TID/stat`) after the command's name, the state first
 * (field 3 of proc(5) at index 0); undefined when it cannot be read (the process or thread ended). The name is in
 * parentheses and may hold spaces and parentheses itself: the fields start after its last `) `.
 */
export function statFields(path) {
  let text;
  try {
    text = readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
  const end = text.lastIndexOf(') ');
  return end < 0
    ? undefined
    : text
        .slice(end + 2)
        .trim()
        .split(' ');
}

/**
 * CPU seconds in stat fields (`statFields`): user and system time (fields 14 and 15 of proc(5)), with those of the
 * children it has waited for (16 and 17) when `reaped`.
 */
export function cpuSeconds(fields, reaped = false) {
  return fields.slice(11, reaped ? 15 : 13).reduce((n, f) => n + Number(f), 0) / TICKS;
}
