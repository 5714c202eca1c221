/**
 * The order test files start in: the longest first, so that no long file starts last and runs alone while the other
 * workers idle. Vitest's own order puts projects in the order of their names and, within one, the files longest in
 * its local cache first; a fresh clone (CI) has no cache, so there it orders by file size, and a long file of a project
 * late in the alphabet (team) started minutes into the run and ended it alone.
 *
 * Here: groups in their `sequence.groupOrder` (the Chromium suites after the rest), then projects by their longest
 * file, then files longest first. A file's time is the one Vitest's cache holds when it has one, else the one recorded
 * in test/file-times.json (`npm run test:slow-list` writes it), else a second. A project's files stay together:
 * projects whose files share one module graph (`isolate: false`) keep a worker only while the next file is theirs.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** A file's time when none is known. */
const UNKNOWN_MS = 1_000;

/** Recorded times by path from the repository's root (`/`-separated), in milliseconds. */
export function recordedTimes(): ReadonlyMap<string, number> {
  try {
    const times = JSON.parse(readFileSync(resolve(repo, 'test/file-times.json'), 'utf8')) as Record<string, number>;
    return new Map(Object.entries(times).filter(([, ms]) => typeof ms === 'number'));
  } catch {
    return new Map();
  }
}

/** The order described above, for files with their project, group and time. */
export function orderFiles<T extends { readonly project: string; readonly group: number; readonly ms: number }>(
  files: readonly T[],
): T[] {
  const longest = new Map<string, number>();
  for (const f of files) longest.set(f.project, Math.max(longest.get(f.project) ?? 0, f.ms));
  const rank = (f: T) => longest.get(f.project) ?? 0;
  return [...files].sort(
    (a, b) =>
      a.group - b.group ||
      rank(b) - rank(a) ||
      (a.project < b.project ? -1 : a.project > b.project ? 1 : 0) ||
      b.ms - a.ms,
  );
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = recordedTimes();
    const described = files.map((spec) => {
      const path = relative(repo, spec.moduleId).split('\\').join('/');
      const cached = this.ctx.cache.getFileTestResults(
        `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`,
      );
      return {
        spec,
        project: spec.project.name,
        group: spec.project.config.sequence.groupOrder ?? 0,
        ms: cached?.duration ?? recorded.get(path) ?? UNKNOWN_MS,
      };
    });
    return orderFiles(described).map((f) => f.spec);
  }
}
