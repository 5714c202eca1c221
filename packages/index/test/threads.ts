/** The threads of this process, as Linux shows them. */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The nice value of each thread of this process, the main thread first (field 19 of /proc/self/task/<tid>/stat);
 * empty where there is no /proc.
 */
export function threadNiceValues(): number[] {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return [];
  }
  return tids.flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}
