/** Sessions as stored: summaries, lookup by id or prefix, and the files a session is read from. */
import { basename, resolve } from 'node:path';
import {
  loadSession as coreLoadSession,
  type DiscoveredFile,
  type LoadSessionOptions,
  openSessionStream,
  type RawResult,
  type Session,
  type SessionFiles,
  type SessionStream,
  type SessionTime,
  zeroTime,
} from '@agentdash/core';
import { agentOfRow } from '../agents.js';
import { AmbiguousSessionError, UnknownSessionError } from '../errors.js';
import { type FileRow, idOfKey } from '../file-row.js';
import { archiveOf, prepared } from '../schema/statements.js';
import type { SessionFilter, SessionSummary, UsagePart } from '../types.js';
import { rawResultOf } from '../write/call-fact.js';
import { recordsOfRows, resultsAt } from './call-payloads.js';
import { capList, clipField } from './field-caps.js';
import { limitSql, type Store, scopeSql } from './scope.js';
import { sessionUsage } from './session-cost.js';

/** A session is live when records were appended to it, or its newest record was written, within this window. */
export const LIVE_WINDOW_MS = 2 * 60 * 1000;

export interface SessionRow {
  id: string;
  session_id: string;
  project_dir: string;
  project_path: string | null;
  title: string | null;
  title_source: string | null;
  started_at: string | null;
  ended_at: string | null;
  started_ms: number | null;
  ended_ms: number | null;
  prompts: number;
  messages: number;
  tool_calls: number;
  errors: number;
  expected_errors: number;
  versions: string;
  models: string;
  git_branch: string | null;
  issues: number;
  usage: string;
  usage_detail: string;
  time: string | null;
  agent: string;
}

/** Whether a session is being written now: appended to while watched, or its newest record is recent. */
export function isLiveSession(now: number, endedMs: number | null, appendedMs: readonly (number | null)[]): boolean {
  if (endedMs !== null && now - endedMs < LIVE_WINDOW_MS) return true;
  return appendedMs.some((ms) => ms !== null && now - ms < LIVE_WINDOW_MS);
}

/** The columns of a session's files that its summary needs (with their secret counts). */
const FILE_COLUMNS = `path, role, agent_id, appended_ms, archived,
    (SELECT coalesce(sum(s.count), 0) FROM secret_counts s WHERE s.file_id = files.id) AS secrets`;
const FILES_OF_SESSION = `SELECT ${FILE_COLUMNS} FROM files WHERE session_id = ? ORDER BY role, path`;
/** The same for several sessions at once (their keys as a JSON array), in the same order within each. */
const FILES_OF_SESSIONS = `SELECT session_id AS key, ${FILE_COLUMNS} FROM files
  WHERE session_id IN (SELECT value FROM json_each(?)) ORDER BY session_id, role, path`;

interface SummaryFile {
  path: string;
  role: 'main' | 'subagent';
  agent_id: string | null;
  appended_ms: number | null;
  archived: number;
  secrets: number;
}

/**
 * Summaries of many sessions: their files read in one query, and the ids shared by several sessions (which need a
 * qualified reference) in another, not two queries per session (a sessions page of a large home is thousands).
 */
export function summariesOf(store: Store, rows: readonly SessionRow[]): SessionSummary[] {
  if (rows.length <= 1) return rows.map((r) => summaryOf(store, r));
  const filesOf = new Map<string, SummaryFile[]>();
  const all = prepared(store.db, FILES_OF_SESSIONS).all(JSON.stringify(rows.map((r) => r.id))) as (SummaryFile & {
    key: string;
  })[];
  for (const { key, ...file } of all) {
    const files = filesOf.get(key);
    if (files === undefined) filesOf.set(key, [file]);
    else files.push(file);
  }
  const shared = new Set(
    prepared(store.db, 'SELECT session_id FROM sessions GROUP BY session_id HAVING COUNT(*) > 1')
      .pluck()
      .all() as string[],
  );
  return rows.map((r) =>
    summaryOf(store, r, {
      files: filesOf.get(r.id) ?? [],
      ref: shared.has(r.session_id) ? refOf(store, r) : r.session_id,
    }),
  );
}

/** The summary of one stored session (`known`: its files and reference, when read already). */
export function summaryOf(
  store: Store,
  row: SessionRow,
  known?: { readonly files: readonly SummaryFile[]; readonly ref: string },
): SessionSummary {
  const files = known?.files ?? (prepared(store.db, FILES_OF_SESSION).all(row.id) as SummaryFile[]);
  const main = files.find((f) => f.role === 'main');
  const archived = (main ?? files[0])?.archived === 1;
  const usage = sessionUsage(JSON.parse(row.usage_detail) as UsagePart[], store.prices);
  const time = row.time === null ? zeroTime : (JSON.parse(row.time) as SessionTime);
  return {
    id: row.session_id,
    agent: agentOfRow(row.agent),
    ref: known?.ref ?? refOf(store, row),
    key: row.id,
    projectPath: row.project_path === null ? undefined : clipField(row.project_path, 4096),
    projectDir: row.project_dir,
    title: row.title === null ? undefined : clipField(row.title),
    titleSource: (row.title_source ?? undefined) as SessionSummary['titleSource'],
    startedAt: row.started_at ?? undefined,
    endedAt: row.ended_at ?? undefined,
    // The session's wall time, one figure everywhere: its main thread's first to last timestamp (the time bar's
    // `wallMs`), not the span of all its files (subagent files another client wrote days apart stretched that).
    durationMs: row.started_ms !== null && main !== undefined ? time.wallMs : undefined,
    messages: row.messages,
    prompts: row.prompts,
    toolCalls: row.tool_calls,
    errors: row.errors,
    expectedErrors: row.expected_errors,
    versions: capList(JSON.parse(row.versions) as string[]),
    models: capList(JSON.parse(row.models) as string[]),
    gitBranch: row.git_branch === null ? undefined : clipField(row.git_branch),
    files: files.map((f) => ({
      path: f.path,
      role: f.role,
      ...(f.agent_id !== null ? { agentId: f.agent_id } : {}),
    })),
    subagents: files.filter((f) => f.role === 'subagent').length,
    // A session read from the archive (its files are gone) is not being written.
    isLive:
      !archived &&
      isLiveSession(
        store.now(),
        row.ended_ms,
        files.map((f) => f.appended_ms),
      ),
    archived,
    issues: row.issues,
    secrets: files.reduce((sum, f) => sum + f.secrets, 0),
    ...usage,
    time,
  };
}

export function listSessions(store: Store, filter: SessionFilter = {}): SessionSummary[] {
  const scoped = scopeSql(filter);
  const rows = prepared(
    store.db,
    `SELECT * FROM sessions s WHERE ${scoped.sql}
       ORDER BY coalesce(s.started_ms, 0) DESC, s.id${limitSql(filter.limit)}`,
  ).all(...scoped.params) as SessionRow[];
  return summariesOf(store, rows);
}

/** A function from session key to reference (see `SessionSummary.ref`), remembering what it looked up. */
export function refsOf(store: Store): (key: string) => string {
  const known = new Map<string, string>();
  return (key) => {
    let ref = known.get(key);
    if (ref === undefined) {
      const row = prepared(store.db, 'SELECT * FROM sessions WHERE id = ?').get(key) as SessionRow | undefined;
      ref = row === undefined ? key : refOf(store, row);
      known.set(key, ref);
    }
    return ref;
  };
}

/**
 * `<id>@<project folder name>`. (Not `<folder>/<id>`: Claude's project folders start with `-`, which a command line
 * takes for an option.)
 */
function qualified(row: Pick<SessionRow, 'project_dir' | 'session_id'>): string {
  return `${row.session_id}@${basename(row.project_dir)}`;
}

/** The shortest unique reference of a session: its id, else `<id>@<folder>`, else its key. */
function refOf(store: Store, row: SessionRow): string {
  const same = prepared(store.db, 'SELECT id, project_dir, session_id FROM sessions WHERE session_id = ?').all(
    row.session_id,
  ) as Pick<SessionRow, 'id' | 'project_dir' | 'session_id'>[];
  if (same.length <= 1) return row.session_id;
  const mine = qualified(row);
  return same.filter((o) => qualified(o) === mine).length === 1 ? mine : row.id;
}

/** Where to look for a session: only sessions with a file under these paths (all sessions when none). */
export interface SessionLookup {
  readonly paths?: readonly string[];
}

/**
 * The session a reference names: its key; its id; `<id or prefix>@<project folder>` or `<project folder>/<id or
 * prefix>` (the folder's name or any trailing part of its path); else a unique prefix of an id — among the sessions under `lookup.paths` when given.
 * AmbiguousSessionError (with the references that tell them apart) when several sessions match.
 */
export function getSession(store: Store, ref: string, lookup: SessionLookup = {}): SessionSummary | undefined {
  const row = findSessionRow(store, ref, lookup);
  return row === undefined ? undefined : summaryOf(store, row);
}

/** The stored key of the session a reference names (see `getSession`). */
export function sessionKeyOfRef(store: Store, ref: string, lookup: SessionLookup = {}): string | undefined {
  return findSessionRow(store, ref, lookup)?.id;
}

function findSessionRow(store: Store, ref: string, lookup: SessionLookup): SessionRow | undefined {
  if (ref === '') return undefined;
  // A resume stub's session is in no list, but its reference (in its issue) still opens it.
  const scope = scopeSql(lookup.paths && lookup.paths.length > 0 ? { paths: lookup.paths } : {}, { resumeStubs: true });
  const rowsWhere = (condition: string, ...params: unknown[]) =>
    prepared(store.db, `SELECT * FROM sessions s WHERE ${condition} AND ${scope.sql} ORDER BY s.id LIMIT 200`).all(
      ...params,
      ...scope.params,
    ) as SessionRow[];
  const byKey = rowsWhere('s.id = ?', ref)[0];
  if (byKey) return byKey;
  const one = (rows: SessionRow[]): SessionRow | undefined => {
    if (rows.length > 1) {
      throw new AmbiguousSessionError(
        ref,
        rows.map((r) => refOf(store, r)),
      );
    }
    return rows[0];
  };
  const exact = one(rowsWhere('s.session_id = ?', ref));
  if (exact) return exact;
  const at = ref.indexOf('@');
  const slash = Math.max(ref.lastIndexOf('/'), ref.lastIndexOf('\\'));
  if (at > 0 || slash > 0) {
    const [idPart, rawFolder] =
      at > 0 ? [ref.slice(0, at), ref.slice(at + 1)] : [ref.slice(slash + 1), ref.slice(0, slash)];
    const folder = rawFolder.replace(/\\/g, '/').replace(/\/+$/, '');
    const rows = rowsWhere('substr(s.session_id, 1, ?) = ?', idPart.length, idPart).filter((r) => {
      const dir = r.project_dir.replace(/\\/g, '/');
      return dir === folder || dir.endsWith(`/${folder}`);
    });
    const exactIds = rows.filter((r) => r.session_id === idPart);
    const found = one(exactIds.length > 0 ? exactIds : rows);
    if (found) return found;
  }
  return one(rowsWhere('substr(s.session_id, 1, ?) = ?', ref.length, ref));
}

/** A reference (see `SessionSummary.ref`) to the session a stored transcript file belongs to. */
export function sessionIdOfFile(store: Store, path: string): string | undefined {
  const key = prepared(store.db, 'SELECT session_id FROM files WHERE path = ?', 'pluck').get(resolve(path)) as
    | string
    | undefined;
  return key === undefined ? undefined : refsOf(store)(key);
}

function toDiscoveredFile(r: FileRow): DiscoveredFile {
  return {
    path: r.path,
    agent: agentOfRow(r.agent),
    projectDir: r.project_dir,
    role: r.role,
    sessionId: idOfKey(r.session_id),
    agentId: r.agent_id ?? undefined,
    metaPath: r.meta_path ?? undefined,
    size: r.size,
    mtimeMs: r.mtime_ms,
    ino: r.ino,
  };
}

/** The files of the session a reference names (see `getSession`). */
export function sessionFiles(store: Store, ref: string): SessionFiles | undefined {
  const key = sessionKeyOfRef(store, ref) ?? ref;
  const rows = prepared(store.db, 'SELECT * FROM files WHERE session_id = ? ORDER BY role, path').all(key) as FileRow[];
  if (rows.length === 0) return undefined;
  const main = rows.find((r) => r.role === 'main');
  return {
    sessionId: idOfKey(key),
    projectDir: (main ?? rows[0])?.project_dir ?? '',
    main: main ? toDiscoveredFile(main) : undefined,
    subagents: rows.filter((r) => r.role === 'subagent').map(toDiscoveredFile),
  };
}

/** Core's full session over the stored files of the session a reference names; live as in `isLiveSession`. */
export async function loadSession(store: Store, ref: string): Promise<Session> {
  const { group, options } = await loadOptions(store, ref);
  return coreLoadSession(group, options);
}

/** The session a reference names, opened to be written a part at a time (core's `openSessionStream`). */
export async function streamSession(store: Store, ref: string): Promise<SessionStream> {
  const { group, options } = await loadOptions(store, ref);
  return openSessionStream(group, options);
}

/** The bytes of a session's files as last indexed (to choose between loading it whole and streaming it). */
export function sessionBytes(store: Store, ref: string): number {
  const key = sessionKeyOfRef(store, ref);
  if (key === undefined) throw new UnknownSessionError(ref);
  return prepared(store.db, 'SELECT coalesce(sum(size), 0) FROM files WHERE session_id = ?', 'pluck').get(
    key,
  ) as number;
}

/** A session's files and how to load them: live or not, results elsewhere in its home, gone files from the archive. */
async function loadOptions(store: Store, ref: string): Promise<{ group: SessionFiles; options: LoadSessionOptions }> {
  const key = sessionKeyOfRef(store, ref);
  const group = key === undefined ? undefined : sessionFiles(store, key);
  if (key === undefined || !group) throw new UnknownSessionError(ref);
  const ended = prepared(store.db, 'SELECT ended_ms FROM sessions WHERE id = ?', 'pluck').get(key) as number | null;
  const appended = prepared(store.db, 'SELECT appended_ms FROM files WHERE session_id = ?', 'pluck').all(key) as (
    | number
    | null
  )[];
  const archived =
    prepared(store.db, "SELECT 1 FROM files WHERE session_id = ? AND role = 'main' AND archived = 1").get(key) !==
    undefined;
  return {
    group,
    options: {
      live: !archived && isLiveSession(store.now(), ended ?? null, appended),
      resultsElsewhere: await resultsElsewhere(store, key),
      // Files that are gone from disk are read from the archive.
      open: archiveOf(store.db).openBytes,
    },
  };
}

/**
 * Results in other sessions' files of the same agent home for calls of this session (a call is paired when any
 * result of its home carries its id, as its fact says), read back from their transcripts (call-payloads.ts).
 */
async function resultsElsewhere(store: Store, key: string): Promise<Map<string, RawResult>> {
  const rows = prepared(
    store.db,
    `SELECT r.tool_use_id AS id, r.file_id AS fileId, r.line, r.offset, f.path
       FROM results r JOIN files f ON f.id = r.file_id
       WHERE f.session_id <> @key AND f.home IN (SELECT home FROM files WHERE session_id = @key)
         AND r.tool_use_id IN (
         SELECT c.tool_use_id FROM calls c JOIN files cf ON cf.id = c.file_id WHERE cf.session_id = @key
         EXCEPT SELECT r2.tool_use_id FROM results r2 JOIN files rf ON rf.id = r2.file_id WHERE rf.session_id = @key)
       ORDER BY r.rowid`,
  ).all({ key }) as { id: string; fileId: number; line: number; offset: number; path: string }[];
  const out = new Map<string, RawResult>();
  if (rows.length === 0) return out;
  const found = await resultsAt(recordsOfRows(store.db, archiveOf(store.db)), rows);
  for (const { row, result } of found.values()) {
    out.set(row.id, rawResultOf(row.id, result, { file: row.path, line: row.line, offset: row.offset }));
  }
  return out;
}
