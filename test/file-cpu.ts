/**
 * Vitest setup file of `AGENTDASH_TEST_CPU=FILE` runs (`npm run test:cpu`): each test file's CPU time, appended to FILE
 * as one JSON line when the file ends. The worker's own time (its threads included) comes from `process.cpuUsage()`,
 * its children's (a CLI the file spawned, once it has exited) from `/proc/self/stat`, and Chromium's (every process
 * of `/usr/bin/chromium`, true of one file only when the Chromium suites run one at a time, as `test:cpu` runs them)
 * from `/proc` too: a file's wall time in a loaded run says little of what it costs, its CPU time says what making it
 * cheaper would save. Linux only (elsewhere the children's and Chromium's times are 0).
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';
import { commandLineOf } from '../packages/web/e2e/chromium.js';

const out = process.env.AGENTDASH_TEST_CPU;
const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Clock ticks per second of /proc's times (USER_HZ, 100 on every Linux build in use). */
const TICK_MS = 10;

/** The fields of a /proc stat line after the command's name (which may hold spaces): `state` is [0]. */
function statFields(path: string): string[] | undefined {
  try {
    const stat = readFileSync(path, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The CPU milliseconds of the children this process has waited for: cutime and cstime, stat(5)'s fields 16 and 17. */
function childrenMs(): number {
  const fields = statFields('/proc/self/stat');
  return fields ? ((Number(fields[13]) || 0) + (Number(fields[14]) || 0)) * TICK_MS : 0;
}

/**
 * The CPU milliseconds of the running Chromium processes by process id: their own (utime, stime) and their waited-for
 * children's (cutime, cstime: a page's renderer, once closed, is reaped by Chromium's zygote and counted there).
 */
function chromiumMs(): Map<number, number> {
  const out = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return out;
  }
  for (const pid of pids) {
    // Debian's /usr/bin/chromium and chromium-headless-shell are scripts that run a binary in /usr/lib/chromium
    const [command = ''] = commandLineOf(Number(pid));
    if (!command.startsWith('/usr/lib/chromium/') && !command.startsWith('/usr/bin/chromium')) continue;
    const fields = statFields(`/proc/${pid}/stat`);
    if (fields)
      out.set(Number(pid), fields.slice(11, 15).reduce((sum, ticks) => sum + (Number(ticks) || 0), 0) * TICK_MS);
  }
  return out;
}

if (out) {
  // From here, before the test file is imported: loading its modules is part of its cost.
  const start = { own: process.cpuUsage(), children: childrenMs(), chromium: chromiumMs(), wall: performance.now() };
  afterAll(() => {
    const own = process.cpuUsage(start.own);
    let chromium = 0;
    for (const [pid, ms] of chromiumMs()) chromium += ms - (start.chromium.get(pid) ?? 0);
    const path = expect.getState().testPath;
    const line = {
      file: path ? relative(repo, path) : '?',
      ownMs: Math.round((own.user + own.system) / 1000),
      childrenMs: childrenMs() - start.children,
      chromiumMs: chromium,
      wallMs: Math.round(performance.now() - start.wall),
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
