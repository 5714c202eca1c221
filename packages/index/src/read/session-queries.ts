/** Sessions as stored: summaries, lookup by id or prefix, and the files a session is read from. */
import { resolve } from 'node:path';
import {
  loadSession as coreLoadSession,
  type LoadSessionOptions,
  openSessionStream,
  type RawResult,
  type Session,
  type SessionFiles,
  type SessionStream,
} from '@agentdash/core';
import { AmbiguousSessionError, UnknownSessionError } from '../errors.js';
import { discoveredOfRow, type FileRow, idOfKey } from '../file-row.js';
import { archiveOf, prepared } from '../schema/statements.js';
import type { SessionSummary } from '../types.js';
import { rawResultOf } from '../write/call-fact.js';
import { recordsOfRows, resultsAt } from './call-payloads.js';
import { HEADLESS_COPY, SHOWN_SESSION, type Store, scopeSql } from './scope.js';
import { isLiveSession, refOf, refsOf, type SessionRow, summaryOf } from './session-summaries.js';

export {
  headlessCopies,
  isLiveSession,
  LIVE_WINDOW_MS,
  listSessions,
  refsOf,
  type SessionRow,
  sessionIdsOf,
  summariesOf,
  summaryOf,
} from './session-summaries.js';

/** Where to look for a session: only sessions with a file under these paths (all sessions when none). */
export interface SessionLookup {
  readonly paths?: readonly string[];
}

/**
 * The session a reference names: its key; its id; `<id or prefix>@<project folder>` or `<project folder>/<id or
 * prefix>` (the folder's name or any trailing part of its path); else a unique prefix of an id — among the
 * sessions under `lookup.paths` when given.
 * A prefix may end in the ellipsis a list prints after it, and `<folder>/…/<id or prefix>` names a folder anywhere
 * on the project folder's path (core's `shortRefs`).
 * Of several sessions that match, the one lists show when the others are hidden (`SHOWN_SESSION`: Gemini CLI's
 * resume stub beside the session it resumed, an empty session), so that the short reference a list prints opens it.
 * AmbiguousSessionError (with the references that tell them apart) when several shown sessions match.
 */
export function getSession(store: Store, ref: string, lookup: SessionLookup = {}): SessionSummary | undefined {
  const row = findSessionRow(store, ref, lookup);
  return row === undefined ? undefined : summaryOf(store, row);
}

/** The stored key of the session a reference names (see `getSession`). */
export function sessionKeyOfRef(store: Store, ref: string, lookup: SessionLookup = {}): string | undefined {
  return findSessionRow(store, ref, lookup)?.id;
}

/** The most sessions an ambiguous reference names (its error says when it matched more). */
const MAX_CANDIDATES = 200;

/** A session that a reference may name, and whether lists show it (`SHOWN_SESSION`: 1) or hide it (0). */
type Candidate = SessionRow & { readonly shown: number };

function findSessionRow(store: Store, ref: string, lookup: SessionLookup): SessionRow | undefined {
  if (ref === '') return undefined;
  // A resume stub's session is in no list, but its reference (in its issue) still opens it.
  const scope = scopeSql(lookup.paths && lookup.paths.length > 0 ? { paths: lookup.paths } : {}, { resumeStubs: true });
  // The sessions a list shows first: among the first candidates, those after a hidden one are all hidden.
  const rowsWhere = (condition: string, ...params: unknown[]) =>
    prepared(
      store.db,
      // A headless output's session beside its transcript's is in no list: the reference names the transcript's.
      `SELECT s.*, (${SHOWN_SESSION} AND NOT (${HEADLESS_COPY})) AS shown FROM sessions s WHERE ${condition} AND ${scope.sql}
         ORDER BY shown DESC, s.id LIMIT ${MAX_CANDIDATES + 1}`,
    ).all(...params, ...scope.params) as Candidate[];
  const byKey = rowsWhere('s.id = ?', ref)[0];
  if (byKey) return byKey;
  /** The one session of the candidates: the one a list shows when the others are hidden (a resume stub, an empty one). */
  const one = (rows: Candidate[]): SessionRow | undefined => {
    const shown = rows.filter((r) => r.shown === 1);
    if (shown.length === 1) return shown[0];
    if (rows.length > 1) {
      // Only the shown ones are offered, when there are some: a hidden one is named by its own full reference.
      const offered = shown.length > 0 ? shown : rows;
      throw new AmbiguousSessionError(
        ref,
        offered.slice(0, MAX_CANDIDATES).map((r) => refOf(store, r)),
        offered.length > MAX_CANDIDATES,
      );
    }
    return rows[0];
  };
  const exact = one(rowsWhere('s.session_id = ?', ref));
  if (exact) return exact;
  /** The session of an id (or its prefix) in the project folders `holds` takes (a path, `/`-separated). */
  const inFolder = (idPart: string, holds: (dir: string) => boolean) => {
    const rows = rowsWhere('substr(s.session_id, 1, ?) = ?', idPart.length, idPart).filter((r) =>
      holds(r.project_dir.replace(/\\/g, '/')),
    );
    const exactIds = rows.filter((r) => r.session_id === idPart);
    return one(exactIds.length > 0 ? exactIds : rows);
  };
  // A folder on the path, the folders after it left out (core's `shortRefs`): `entire-cli-3/…/f7633853`.
  const between = /^(.+)[\\/]…[\\/]([^\\/]+)$/.exec(ref);
  if (between) {
    const folder = `/${(between[1] ?? '').replace(/\\/g, '/')}/`;
    return inFolder((between[2] ?? '').replace('…', ''), (dir) => `/${dir}/`.includes(folder));
  }
  // A short form as a list prints it (core's `shortRefs`), its id cut with an ellipsis: `rollout-2026-11-30T10-00…`.
  const typed = ref.replace('…', '');
  // `<id>@<folder>` or `<folder>/<id>`: an id may hold an `@` (`truth@0.61.0`) and a folder a `/`, so each reading
  // is tried, the `@` first; the first that names sessions is taken.
  const at = typed.indexOf('@');
  const slash = Math.max(typed.lastIndexOf('/'), typed.lastIndexOf('\\'));
  const readings: (readonly [string, string])[] = [];
  if (at > 0) readings.push([typed.slice(0, at), typed.slice(at + 1)]);
  if (slash > 0) readings.push([typed.slice(slash + 1), typed.slice(0, slash)]);
  for (const [idPart, rawFolder] of readings) {
    const folder = rawFolder.replace(/\\/g, '/').replace(/\/+$/, '');
    const found = inFolder(idPart, (dir) => dir === folder || dir.endsWith(`/${folder}`));
    if (found) return found;
  }
  return one(rowsWhere('substr(s.session_id, 1, ?) = ?', typed.length, typed));
}

/** A reference (see `SessionSummary.ref`) to the session a stored transcript file belongs to. */
export function sessionIdOfFile(store: Store, path: string): string | undefined {
  const key = prepared(store.db, 'SELECT session_id FROM files WHERE path = ?', 'pluck').get(resolve(path)) as
    | string
    | undefined;
  return key === undefined ? undefined : refsOf(store)(key);
}

/** The stored paths of the transcript files with this inode (`AgentIndex.filesWithInode`). */
export function filesWithInode(store: Store, ino: number): string[] {
  return prepared(store.db, 'SELECT path FROM files WHERE ino = ?', 'pluck').all(ino) as string[];
}

/**
 * The stored files (those of `paths`, else every one) whose last bytes were held back unreported because they may
 * still have been being written when read (refresh-plan's `storedMtimeOf`: stored with mtime 0): read again once
 * they settle, a record left cut short is reported.
 */
export function heldWhileWriting(store: Store, paths?: readonly string[]): string[] {
  // on disk: read as it is (0), or shown at its last version meanwhile (2, HELD: a document caught mid-rewrite)
  if (paths === undefined)
    return prepared(store.db, 'SELECT path FROM files WHERE mtime_ms = 0 AND archived <> 1', 'pluck').all() as string[];
  const held = prepared(store.db, 'SELECT 1 FROM files WHERE path = ? AND mtime_ms = 0 AND archived <> 1', 'pluck');
  return [...new Set(paths.map((path) => resolve(path)))].filter((path) => held.get(path) !== undefined);
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
    main: main ? discoveredOfRow(main) : undefined,
    subagents: rows.filter((r) => r.role === 'subagent').map(discoveredOfRow),
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
