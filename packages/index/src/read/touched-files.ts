/**
 * Which sessions touched a file: the calls whose files (`calls.touched`, core's `filesTouchedBy`) include it, and every
 * session holding one of those calls (a resumed or forked session's copy of it too, as its Files page lists it). A
 * search reads every call that touched a file (no index: a few per file call, and the filter is asked for one file).
 */
import { isAbsolutePath, joinedPath } from '@agentdash/core/present';

/** A piece of SQL with its `?` parameters (scope.ts's `Sql`, which uses these). */
interface Sql {
  readonly sql: string;
  readonly params: unknown[];
}

/** `file` as matched: without a leading `./`. */
const pathOf = (file: string): string => file.replace(/^(?:\.[\\/])+/, '');

/**
 * SQL condition on `TOUCHED_FILES t`: its path is `file`, or (for a relative `file`) ends with it on whole path
 * segments: `src/app.ts` is `/home/u/proj/src/app.ts` (or `C:\proj\src\app.ts`), not `/home/u/proj/src/xapp.ts`.
 * An absolute path is matched as the Files page writes it (core's `joinedPath`: a Windows drive's with backslashes).
 */
export function touchedPathCond(file: string): Sql {
  const path = pathOf(file);
  if (isAbsolutePath(path)) return { sql: 't.path = ?', params: [joinedPath(path)] };
  // a Windows path's end as its backslashes write it too
  const windows = path.replace(/\//g, '\\');
  return {
    sql: "(t.path = ? OR substr(t.path, -length(?) - 1) IN ('/' || ?, char(92) || ?, char(92) || ?))",
    params: [path, path, path, path, windows],
  };
}

/** SQL: `path` is in the home folder as a shell names it (`~`, `~/…`: absolute to core's `isAbsolutePath`). */
const inHome = (path: string) => `(${path} = '~' OR ${path} GLOB '~[/\\]*')`;

/** A folder's path and the separator it writes (core's `joinedPath`): a backslash only when it has no slash. */
const FOLDER = "rtrim(w.text, '/' || char(92))";
const SEPARATOR = "CASE WHEN instr(w.text, '/') = 0 AND instr(w.text, char(92)) > 0 THEN char(92) ELSE '/' END";

/**
 * Every file each call touched: `tool_use_id`, `file_id`, `changed` (1: changed it) and `path`, joined back to the
 * folder the call ran in (its record's cwd) when `calls.touched` holds it relative to it (call-fact.ts): a path
 * core's `isAbsolutePath` calls absolute is kept.
 */
export const TOUCHED_FILES = `(SELECT t0.tool_use_id, t0.file_id, t0.changed,
    CASE WHEN w.text IS NULL OR t0.p GLOB '[/\\]*' OR t0.p GLOB '[A-Za-z]:[/\\]*' OR ${inHome('t0.p')} THEN t0.p
      ELSE ${FOLDER} || ${SEPARATOR} || t0.p END AS path
    FROM (SELECT c0.tool_use_id, c0.file_id, c0.line, json_extract(j.value, '$[0]') AS p,
      json_extract(j.value, '$[1]') AS changed FROM calls c0, json_each(c0.touched) j WHERE c0.touched IS NOT NULL) t0
    LEFT JOIN records r ON r.file_id = t0.file_id AND r.line = t0.line LEFT JOIN strings w ON w.id = r.cwd_ref AND w.text <> '')`;

/** The sessions holding a call that touched a path `where` selects (`TOUCHED_FILES t`). */
const sessionsTouching = (where: string): string =>
  `SELECT f.session_id FROM ${TOUCHED_FILES} t JOIN calls c ON c.tool_use_id = t.tool_use_id
    JOIN files f ON f.id = c.file_id WHERE ${where}`;

/**
 * SQL condition on `sessions s`: one of its calls touched `file` (`touchedPathCond`). An absolute `file` also matches
 * a path a call wrote relative in a record naming no folder (the index could not join it), joined to its session's
 * project path as the session's Files page joins it (core's `fileActivityOf`).
 */
export function touchedSessionCond(file: string): Sql {
  const cond = touchedPathCond(file);
  const direct = `s.id IN (${sessionsTouching(cond.sql)})`;
  const path = pathOf(file);
  if (!isAbsolutePath(path)) return { sql: direct, params: cond.params };
  // joined as core's `joinedPath` joins it: on a Windows drive with backslashes only
  const relative = `SELECT f.session_id FROM ${TOUCHED_FILES} t JOIN calls c ON c.tool_use_id = t.tool_use_id
    JOIN files f ON f.id = c.file_id JOIN sessions ps ON ps.id = f.session_id
    WHERE ps.project_path IS NOT NULL AND NOT ${inHome('t.path')} AND CASE WHEN ps.project_path GLOB '[A-Za-z]:[/\\]*'
      THEN replace(rtrim(ps.project_path, '/' || char(92)) || char(92) || t.path, '/', char(92))
      ELSE rtrim(ps.project_path, '/') || '/' || t.path END = ?`;
  return { sql: `(${direct} OR s.id IN (${relative}))`, params: [...cond.params, ...cond.params] };
}
