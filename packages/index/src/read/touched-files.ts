/**
 * Which sessions touched a file: the calls whose files (`calls.touched`, core's `filesTouchedBy`) include it, through
 * `touched_files` (schema-derived.ts), and every session holding one of those calls (a resumed or forked session's
 * copy of it too, as its Files page lists it).
 */

/** A piece of SQL with its `?` parameters (scope.ts's `Sql`, which uses these). */
interface Sql {
  readonly sql: string;
  readonly params: unknown[];
}

/** Whether `path` is absolute: `/…`, `\…`, or a drive's `C:\…`. */
const isAbsolute = (path: string): boolean => /^(?:[\\/]|[A-Za-z]:[\\/])/.test(path);

/**
 * SQL condition on `touched_files t`: its path is `file`, or (for a relative `file`) ends with it on whole path
 * segments: `src/app.ts` is `/home/u/proj/src/app.ts` (or `C:\proj\src\app.ts`), not `/home/u/proj/src/xapp.ts`.
 * An absolute path is matched as written (a search of the path index).
 */
export function touchedPathCond(file: string): Sql {
  const path = file.replace(/^(?:\.[\\/])+/, '');
  if (isAbsolute(path)) return { sql: 't.path = ?', params: [path] };
  return {
    sql: "(t.path = ? OR substr(t.path, -length(?) - 1) IN ('/' || ?, char(92) || ?))",
    params: [path, path, path, path],
  };
}

/** SQL condition on `sessions s`: one of its calls touched `file` (`touchedPathCond`). */
export function touchedSessionCond(file: string): Sql {
  const cond = touchedPathCond(file);
  return {
    sql: `s.id IN (SELECT f.session_id FROM touched_files t JOIN calls c ON c.tool_use_id = t.tool_use_id
      JOIN files f ON f.id = c.file_id WHERE ${cond.sql})`,
    params: cond.params,
  };
}
