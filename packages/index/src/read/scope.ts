/** SQL building blocks shared by the queries: the open database, and filters turned into WHERE conditions. */
import { resolve, sep } from 'node:path';
import type { PriceTable } from '@agentdash/core';
import { claudeModelQuery, projectFolderAgents } from '@agentdash/core/base';

import type Database from 'better-sqlite3';
import type { CallFilter, SessionFilter, TimeInput } from '../types.js';
import { touchedSessionCond } from './touched-files.js';

/** What every query needs: the connection and the clock (live status depends on it). */
export interface Store {
  readonly db: Database.Database;
  readonly now: () => number;
  /** Prices for the costs in session summaries. */
  readonly prices: PriceTable;
}

/** A piece of SQL with its `?` parameters. */
export interface Sql {
  readonly sql: string;
  readonly params: unknown[];
}

export function toMs(value: TimeInput | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  if (value instanceof Date) return value.getTime();
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`not a date: ${value}`);
  return ms;
}

/** Conditions joined by AND (`1 = 1` when there are none), with their parameters in order. */
export class Where implements Sql {
  readonly conditions: string[] = [];
  readonly params: unknown[] = [];

  get sql(): string {
    return this.conditions.length === 0 ? '1 = 1' : this.conditions.join(' AND ');
  }

  add(condition: string, ...params: unknown[]): this {
    this.conditions.push(condition);
    this.params.push(...params);
    return this;
  }

  /** Adds the condition when the value is given (not undefined, not ''); the value fills each of its `?`. */
  when(value: string | number | undefined, condition: string): this {
    if (value === undefined || value === '') return this;
    const holes = condition.split('?').length - 1;
    return this.add(condition, ...Array.from({ length: holes }, () => value));
  }
}

/**
 * SQL condition: the file `alias.path` is one of the paths or under one of them, or its `alias.project_dir` is (a file
 * kept outside its agent's folders, as OpenCode's session snapshots are, belongs to the root its source is under;
 * for the other agents a file's project folder holds it, so this adds nothing). "Under" is a range of the column
 * (`root/` ≤ path < `root` + the character after the separator: byte order, the column's collation), so an index on
 * it is searched; a test of each path's first characters read every stored file, on every append the server
 * refreshed. `columns`: the columns tested (a table without `project_dir` passes `['path']`).
 */
export function pathCond(
  paths: readonly string[],
  alias: string,
  columns: readonly string[] = ['path', 'project_dir'],
): Sql {
  const ors: string[] = [];
  const params: unknown[] = [];
  for (const p of paths) {
    const root = resolve(p);
    const prefix = root.endsWith(sep) ? root : root + sep;
    const past = prefix.slice(0, -1) + String.fromCharCode(sep.charCodeAt(0) + 1);
    for (const column of columns) {
      ors.push(`(${alias}.${column} = ? OR (${alias}.${column} >= ? AND ${alias}.${column} < ?))`);
      params.push(root, prefix, past);
    }
  }
  return { sql: ors.length === 0 ? '1 = 1' : `(${ors.join(' OR ')})`, params };
}

/**
 * Whether a model of a sessions row `s` (`json_each(s.models)` as `alias`) is its own: named by its own responses (or
 * asked for), not only by a fork's or resume's copies of an earlier conversation (`sessions.copied_models`; its
 * summary's `models` are the same: session-summaries.ts `ownModels`).
 */
export const OWN_MODEL = (alias: string) => `${alias}.value NOT IN (SELECT value FROM json_each(s.copied_models))`;

/** A sessions row `s`'s own messages, as its summary counts them (session-summaries.ts `summaryOf`). */
export const OWN_MESSAGES = 'max(0, s.messages - s.copied_prompts - s.copied_responses)';

/**
 * A session of no message whose files include a resume stub (core's `resume_stub` issue: a header Gemini CLI left in
 * a file of its own when it resumed the session another file holds). Its file and issue stay in the index.
 */
const RESUME_STUB = `s.messages = 0 AND EXISTS (SELECT 1 FROM files sf JOIN issues si ON si.file_id = sf.id
  WHERE sf.session_id = s.id AND si.code = 'resume_stub')`;

/**
 * A session read from a headless run's output only (core's `DiscoveredFile.headless`: a CI job's `codex exec --json` or
 * stream-json artifact) while the index holds the agent's transcript of it too: a session of the same agent whose id
 * is the output's (its first part, for a later run `<id>@<file>`) with a file that is no such output. The transcript
 * holds what the output says and more (timestamps, each request's usage), so the output's session is in no list or
 * count, as a resume stub's; its files stay indexed, and its session counts again once no transcript of it is there.
 */
export const HEADLESS_COPY = `EXISTS (SELECT 1 FROM files hf WHERE hf.session_id = s.id AND hf.headless = 1)
  AND EXISTS (SELECT 1 FROM sessions t JOIN files tf ON tf.session_id = t.id AND tf.headless = 0
    WHERE t.session_id = CASE WHEN instr(s.session_id, '@') > 0
      THEN substr(s.session_id, 1, instr(s.session_id, '@') - 1) ELSE s.session_id END
    AND t.agent = s.agent AND t.id <> s.id)`;

/**
 * A session the dashboard's list shows (its `hideEmpty`): one with a tool call of its own, or a message of its own
 * and a title. An empty or warm-up session is hidden, and so are a resume stub's (no message) and a resume's or
 * fork's that added nothing to the conversation it copied (its messages are the earlier session's; a call is counted
 * by its own id, a response by its message id: a session that owns a call is not one). A reference that names one shown
 * session and hidden ones besides names the shown one (`findSessionRow`). Standard SQL over a sessions row `s`'s own
 * messages (`messages`: the team server's column holds them) and `tool_calls`, and `untitled`, a condition saying it
 * has no title: the team server's PostgreSQL list applies it with its own (a session pushed at the summary tier has a
 * title on the laptop, not on the server).
 */
export const shownSession = (untitled: string, messages = 's.messages'): string =>
  `(s.tool_calls > 0 OR (${messages} > 0 AND NOT (${untitled})))`;

/** `shownSession` over the index's sessions: a session without a title has none or an empty one. */
export const SHOWN_SESSION = shownSession("coalesce(s.title, '') = ''", OWN_MESSAGES);

/**
 * The name of a session's project folder (`s.project_dir`, a full path: `…/.claude/projects/-home-ann-api`): what a
 * project filter of a name matches besides the project's own path. The folders it is in are not the project's: a
 * filter by `claude`, or by a part of the user's home, would select every session. The text after the last `/` (or `\`): the
 * path without its trailing run of characters other than `/` is its parent folder, and the name follows it.
 */
const PROJECT_FOLDER = (() => {
  const dir = "replace(s.project_dir, char(92), '/')";
  return `substr(s.project_dir, length(rtrim(${dir}, replace(${dir}, '/', ''))) + 1)`;
})();

/** The agents whose session folder's name is a project's (core's `projectFolderAgents`), as a JSON array. */
const PROJECT_FOLDER_AGENTS = JSON.stringify(projectFolderAgents);

/**
 * SQL condition on `sessions s` for a session filter. With `paths`, a session is in scope when one of its files
 * is under them (queries over files, calls and text also check each file: see `pathCond`). A resume stub's empty
 * session, and a headless output's whose transcript is indexed (`HEADLESS_COPY`), is in no list or count, unless
 * `resumeStubs` (a look-up by reference still finds it).
 */
export function scopeSql(
  filter: SessionFilter,
  options: {
    readonly resumeStubs?: boolean;
    /**
     * The paths hold few of the stored files (a refresh of some folders counting their sessions): their files are
     * found first (a range of the path index), then their sessions by key, instead of testing each session's files
     * (far fewer rows read). Where the paths hold most files (the served home and a stray folder), a list of their
     * sessions costs more than the test, so this is not the default.
     */
    readonly pathsFirst?: boolean;
  } = {},
): Where {
  const where = new Where();
  if (options.resumeStubs !== true) where.add(`NOT (${RESUME_STUB})`).add(`NOT (${HEADLESS_COPY})`);
  if (filter.paths && filter.paths.length > 0) {
    const cond = pathCond(filter.paths, 'f');
    if (options.pathsFirst === true) {
      where.add(`s.id IN (SELECT f.session_id FROM files f WHERE ${cond.sql})`, ...cond.params);
    } else {
      where.add(`EXISTS (SELECT 1 FROM files f WHERE f.session_id = s.id AND ${cond.sql})`, ...cond.params);
    }
  }
  if (filter.project) {
    // A filter naming a path (the dashboard's drill-down from a project known by its folder alone) matches the whole
    // folder's path, letter for letter (two folders may differ only in case); a name, the folder's name, its letters
    // in either case (ASCII, as SQLite's lower() folds them), or the name of its folder where an agent's folder is
    // named for its project. The team server's filter is the same (session-sql.ts).
    if (/[\\/]/.test(filter.project)) {
      where.when(filter.project, `(instr(coalesce(s.project_path, ''), ?) > 0 OR instr(s.project_dir, ?) > 0)`);
    } else {
      const name = filter.project.replace(/[A-Z]/g, (c) => c.toLowerCase());
      where.add(
        `(instr(lower(coalesce(s.project_path, '')), ?) > 0
          OR (s.agent IN (SELECT value FROM json_each(?)) AND instr(lower(${PROJECT_FOLDER}), ?) > 0))`,
        name,
        PROJECT_FOLDER_AGENTS,
        name,
      );
    }
  }
  where
    .when(toMs(filter.since), 'coalesce(s.ended_ms, s.started_ms) >= ?')
    .when(toMs(filter.until), 's.started_ms <= ?')
    .when(
      modelQuery(filter.model),
      `EXISTS (SELECT 1 FROM json_each(s.models) m WHERE instr(lower(m.value), ?) > 0 AND ${OWN_MODEL('m')})`,
    )
    .when(filter.version, 'EXISTS (SELECT 1 FROM json_each(s.versions) WHERE value = ?)')
    .when(filter.agent, 's.agent = ?');
  if (filter.file !== undefined && filter.file !== '') {
    const touched = touchedSessionCond(filter.file);
    where.add(touched.sql, ...touched.params);
  }
  if (filter.ids !== undefined) {
    where.add(`s.session_id IN (SELECT value FROM json_each(?))`, JSON.stringify(filter.ids));
  }
  // An error that is not expected (a declined plan, a shell's non-zero exit the agent meant), as the lists count them
  // apart: a session of expected errors only has none. The team server's filter is the same (session-sql.ts).
  // a real error: a call's, or a request the agent gave up on
  if (filter.hasErrors === true) where.add('(s.errors > s.expected_errors OR s.api_errors > 0)');
  if (filter.hasErrors === false) where.add('s.errors <= s.expected_errors AND s.api_errors = 0');
  if (filter.hideEmpty === true) {
    where.add(SHOWN_SESSION);
  }
  return where;
}

/**
 * The calls that hold their fact (`cf`; `sessionCallsWhere` keeps those: each call once per agent home, see `calls`
 * in schema-derived.ts) with their file (`cff`, whose session is theirs). A LEFT JOIN on the files' primary key: a
 * query that reads no column of the file does not touch `files` at all.
 */
export const CALL_FACTS = 'calls cf LEFT JOIN files cff ON cff.id = cf.file_id';

/** SQL on a call's fact (`cf`): it is an error, its result says so (as `calls()` reports status `error`). */
export const IS_ERROR = '(cf.has_result = 1 AND cf.is_error = 1)';
/**
 * SQL: the error figures of grouped calls, one rule for every count of them (per tool, bucket, project and overall):
 * `errors` counts every error, `expectedErrors` those of them classified as expected (`severity`).
 */
export const ERROR_COUNTS = `coalesce(SUM(${IS_ERROR}), 0) AS errors,
  coalesce(SUM(${IS_ERROR} AND cf.severity = 'expected'), 0) AS expectedErrors`;

/** Calls (`CALL_FACTS`) of the sessions a session filter selects that occur in a file under its paths. */
export function sessionCallsWhere(sessions: SessionFilter, tool: string | undefined): Where {
  const where = new Where().add('cf.has_result IS NOT NULL');
  if (sessions.paths && sessions.paths.length > 0) {
    // The call occurs in a file under the paths, of a session the other filters select: the file of its first
    // occurrence (`cf.file_id`, the cheap and usual case) or another one of the same agent home (a copy in a
    // fork's or resume's file; a copy in another home has a fact of its own).
    const { paths, ...rest } = sessions;
    const scoped = scopeSql(rest);
    // The copy's test runs only for an id that occurs more than once (a list made once from the calls' key): run for
    // every call out of scope, it was most of the query's time in a large home.
    const cond = pathCond(paths, 'pf');
    where.add(
      `((cf.file_id IN (SELECT pf.id FROM files pf WHERE ${cond.sql})
         AND cff.session_id IN (SELECT s.id FROM sessions s WHERE ${scoped.sql}))
        OR (cf.tool_use_id IN (SELECT tool_use_id FROM calls GROUP BY tool_use_id HAVING COUNT(*) > 1)
            AND EXISTS (SELECT 1 FROM calls pc JOIN files pf ON pf.id = pc.file_id JOIN sessions s ON s.id = pf.session_id
                        WHERE pc.tool_use_id = cf.tool_use_id AND ${cond.sql} AND ${scoped.sql}
                        AND pf.home = (SELECT ff.home FROM files ff WHERE ff.id = cf.file_id))))`,
      ...cond.params,
      ...scoped.params,
      ...cond.params,
      ...scoped.params,
    );
  } else {
    const scoped = scopeSql(sessions);
    // No session condition when there is none to apply: the stats query then reads a covering index only.
    if (scoped.sql !== '1 = 1') {
      where.add(`cff.session_id IN (SELECT s.id FROM sessions s WHERE ${scoped.sql})`, ...scoped.params);
    }
  }
  // core's `isOfTool`: written so, named so now, or named now what its own agent calls the name now (`Task`: Claude
  // Code's `Agent`), each agent's current name asked once (`canonical_tool`), not per call
  return where.when(
    tool,
    `(cf.name = ? OR cf.canonical_name = ? OR (cff.agent, cf.canonical_name) IN
      (SELECT a.agent, canonical_tool(a.agent, ?) FROM (SELECT DISTINCT agent FROM files) a))`,
  );
}

/** The filters that select calls by where and when they happened (not by their outcome). */
export type CallScope = Pick<CallFilter, 'paths' | 'project' | 'tool' | 'sessionId' | 'since' | 'until' | 'agent'>;

/** The sessions a call scope selects calls of (its project, agent and paths). */
export function sessionsOfCallScope(filter: CallScope): SessionFilter {
  return {
    ...(filter.paths ? { paths: filter.paths } : {}),
    ...(filter.project ? { project: filter.project } : {}),
    ...(filter.agent ? { agent: filter.agent } : {}),
  };
}

/**
 * Conditions on `CALL_FACTS` for a call scope: the project and paths select sessions (and the paths each call's
 * file); since and until apply to the call's own timestamp.
 */
export function callScopeWhere(filter: CallScope): Where {
  return sessionCallsWhere(sessionsOfCallScope(filter), filter.tool)
    .when(filter.sessionId, 'cff.session_id = ?')
    .when(toMs(filter.since), 'cf.ts_ms >= ?')
    .when(toMs(filter.until), 'cf.ts_ms <= ?');
}

/** ` LIMIT n` for a positive limit, else nothing. */
export function limitSql(limit: number | undefined): string {
  return limit !== undefined && limit > 0 ? ` LIMIT ${Math.floor(limit)}` : '';
}

/**
 * A filter without its `paths` when every stored file is under them (the usual case: the CLI passes the Claude
 * home it indexed), so that queries need not test each call's files.
 */
export function withoutCoveringPaths<F extends SessionFilter>(store: Pick<Store, 'db'>, filter: F): F {
  if (filter.paths === undefined || filter.paths.length === 0) return filter;
  const cond = pathCond(filter.paths, 'f');
  const outside = store.db.prepare(`SELECT 1 FROM files f WHERE NOT ${cond.sql} LIMIT 1`).get(...cond.params);
  if (outside !== undefined) return filter;
  const { paths: _paths, ...rest } = filter;
  return rest as F;
}

/**
 * `withoutCoveringPaths` for a call scope (`sessionCallsWhere`), whose sessions are selected by `sessions` (a
 * project, …; not paths). The paths are left out only when nothing there can tell two sessions of one agent home
 * apart: else their condition also counts a call whose copy (a resume's, a fork's) is in a selected session while its
 * first occurrence is not, which the condition without paths does not (a project's calls would change with the paths
 * given).
 */
export function withoutCoveringCallPaths<F extends SessionFilter>(
  store: Pick<Store, 'db'>,
  filter: F,
  sessions: SessionFilter,
): F {
  const { paths: _paths, agent: _agent, ...selecting } = sessions;
  return scopeSql(selecting).sql === scopeSql({}).sql ? withoutCoveringPaths(store, filter) : filter;
}

/** A model filter's text as the stored ids are written (core's `claudeModelQuery`); undefined for none. */
export function modelQuery(model: string | undefined): string | undefined {
  return model === undefined || model === '' ? model : claudeModelQuery(model);
}
