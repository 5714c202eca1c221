/** The threads of this process, as Linux shows them. */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The nice value of each thread of this process, the main thread first (field 19 of /proc/self/task/<tid>/stat);
 * empty where there is no /proc.
 */
export function threadNiceValues(): number[] {
  let tids: string[];
  try {
    // The main thread's id is the process's: listed in id order, a thread started after ids wrapped around (a long
    // test worker starts many) would come before it.
    const main = String(process.pid);
    tids = [main, ...readdirSync('/proc/self/task').filter((tid) => tid !== main)];
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
