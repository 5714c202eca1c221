/** What a refresh reports of the paths it refreshed, counted from the index. */
import type Database from 'better-sqlite3';
import { pathCond, scopeSql, withoutCoveringPaths } from '../read/scope.js';
import { prepared } from '../schema/statements.js';
import type { RefreshReport } from '../types.js';
import type { WarmCounts } from '../warm/freshness.js';
import type { BuildProgress } from './building.js';

/**
 * What a refresh of `paths` reports of them as a whole: stored files (on disk and from the archive), issues (the
 * last refresh's unreadable files and folders too), sessions. Plain counts when every stored file is under the
 * paths (the usual case).
 */
export function countsUnder(db: Database.Database, unreadable: number, paths: readonly string[]): WarmCounts {
  const counted = withoutCoveringPaths({ db }, { paths });
  const scoped = scopeSql(counted, { pathsFirst: true });
  const inPaths = pathCond(counted.paths ?? [], 'f');
  const files = prepared(
    db,
    `SELECT COUNT(*) AS files, COALESCE(SUM(f.archived = 1), 0) AS archived FROM files f WHERE ${inPaths.sql}`,
  ).get(...inPaths.params) as { files: number; archived: number };
  const issues =
    (prepared(db, `SELECT COUNT(*) FROM issues i JOIN files f ON f.id = i.file_id WHERE ${inPaths.sql}`)
      .pluck()
      .get(...inPaths.params) as number) + unreadable;
  const sessions = prepared(db, `SELECT COUNT(*) FROM sessions s WHERE ${scoped.sql}`)
    .pluck()
    .get(...scoped.params) as number;
  return { files: files.files, issues, sessions, archivedFiles: files.archived };
}

/** The report of a refresh that read nothing because another process is building the index: what it committed. */
export function partialReport(counts: WarmCounts, elsewhere: BuildProgress): RefreshReport {
  return {
    files: counts.files,
    filesParsed: 0,
    bytesParsed: 0,
    records: 0,
    issues: counts.issues,
    newIssues: 0,
    filesRemoved: 0,
    sessions: counts.sessions,
    archivedFiles: counts.archivedFiles,
    partial: { filesDone: elsewhere.filesDone, filesTotal: elsewhere.filesTotal },
  };
}
