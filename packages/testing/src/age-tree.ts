import { lutimesSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Date every folder and file under `path` an hour back: older than the window of folder changes a refresh does not
 * vouch for (mtimes can be coarse), so that the warm path can be tested right after a tree is written.
 */
export function ageTree(path: string): void {
  const then = Date.now() / 1000 - 3600;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory()) ageTree(join(path, entry.name));
    // A link is dated itself (it may point nowhere, or to itself).
    else if (entry.isSymbolicLink()) lutimesSync(join(path, entry.name), then, then);
    else utimesSync(join(path, entry.name), then, then);
  }
  utimesSync(path, then, then);
}
