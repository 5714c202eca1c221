import { existsSync, renameSync } from 'node:fs';
import {
  defaultPriceTable,
  type OpenBytes,
  type ParseIssue,
  type PriceTable,
  type Session,
  type SessionFiles,
  type SessionStream,
} from '@agentdash/core';
import { messageOf } from '@agentdash/core/base';
import type Database from 'better-sqlite3';
import { adapterForFile, agentOfRow } from './agents.js';
import { ARCHIVE_SIZE } from './archive/archive.js';
import { loadPartialSession, type SessionVersions, sessionVersions } from './archive/session-versions.js';
import {
  IndexBusyError,
  isBusy,
  isCorruption,
  NewerDerivedIndexError,
  NewerIndexError,
  NotAnIndexError,
} from './errors.js';
import { analytics } from './read/analytics.js';
import { hasArchivedFilesUnder } from './read/archived-under.js';
import { type IssueFilter, issues } from './read/issue-queries.js';
import type { Store } from './read/scope.js';
import { search } from './read/search.js';
import { type CopiedFrom, sessionCopies, sessionOwnFrom } from './read/session-copies.js';
import { createSessionCostFunction } from './read/session-cost.js';
import { type SessionHeaderParts, sessionHeader } from './read/session-header.js';
import {
  pageSessions,
  type SessionFacets,
  type SessionPage,
  type SessionPageQuery,
  type SessionTotals,
  sessionFacets,
  sessionTotals,
} from './read/session-page.js';
import {
  filesWithInode,
  getSession,
  headlessCopies,
  heldWhileWriting,
  listSessions,
  loadSession,
  type SessionLookup,
  sessionBytes,
  sessionFiles,
  sessionIdOfFile,
  sessionIdsOf,
  sessionKeyOfRef,
  streamSession,
} from './read/session-queries.js';
import { calls, stats } from './read/stats-queries.js';
import { type UsageResponse, usageResponses } from './read/usage-queries.js';
import {
  assertSqliteFile,
  asUnavailable,
  createPrivately,
  headerIsOurs,
  INDEX_APPLICATION_ID,
  recogniseIndex,
} from './schema/db-file.js';
import { useIncrementalVacuum } from './schema/free-pages.js';
import { salvageArchive, salvagedWords, salvageSiblings } from './schema/salvage.js';
import { DERIVED_VERSION, migrate, NewerDerivedError, NewerSchemaError, SCHEMA_VERSION } from './schema/schema.js';
import { openDatabase } from './schema/sqlite-addon.js';
import { archiveOf } from './schema/statements.js';
import { createTelemetryStore, type TelemetryStore } from './telemetry/index.js';
import type {
  AnalyticsFilter,
  CallAnalytics,
  CallFilter,
  CallRow,
  RefreshOptions,
  RefreshReport,
  SearchFilter,
  SearchHit,
  SessionFilter,
  SessionSummary,
  StoredIssue,
  ToolStats,
  UsageFilter,
} from './types.js';
import { type BuildProgress, buildingElsewhere } from './write/building.js';
import { type ForgetReport, Refresher } from './write/refresh.js';

export { DEFAULT_SEARCH_LIMIT, toFtsQuery } from './read/search.js';
export { LIVE_WINDOW_MS, type SessionLookup } from './read/session-queries.js';
export { defaultDbPath } from './schema/db-path.js';
export type { ForgetReport } from './write/refresh.js';

export interface OpenIndexOptions {
  /** SQLite file; `:memory:` for a throwaway index. */
  readonly dbPath: string;
  /** Called with one-line notices (e.g. a corrupt index file moved aside and rebuilt). */
  readonly onWarning?: (message: string) => void;
  /** Clock, for tests. */
  readonly now?: () => number;
  /**
   * How long to wait for another process's write lock before giving up with `IndexBusyError` (default 60 s).
   * Readers never wait: the database is in WAL mode.
   */
  readonly busyTimeoutMs?: number;
  /** Prices for session costs (default: core's built-in table). */
  readonly prices?: PriceTable;
  /**
   * Drop the derived tables and read every transcript again (from disk, else from the archive, which is kept), whatever
   * version built them. Without it an index a newer AgentDash built is refused (`NewerDerivedIndexError`): two
   * installs used in turn would each rebuild it whenever the other had run.
   */
  readonly rebuild?: boolean;
}

/** Default wait for another process's write lock. */
export const DEFAULT_BUSY_TIMEOUT_MS = 60_000;

export interface AgentIndex {
  readonly dbPath: string;
  refresh(paths: readonly string[], options?: RefreshOptions): Promise<RefreshReport>;
  listSessions(filter?: SessionFilter): SessionSummary[];
  /** Every session id the index holds, once each: what a session's shortest reference must differ from. */
  sessionIds(): string[];
  /**
   * The sessions `filter` selects that a headless run's output holds while the agent's transcript of them is indexed
   * too: in no list or count (the transcript's session is), kept for a push to take back from a team server.
   */
  headlessCopies(filter?: SessionFilter): SessionSummary[];
  /** One page of the sessions `filter` selects, sorted in SQL, with the total and sums over all pages. */
  pageSessions(filter: SessionFilter, query?: SessionPageQuery): SessionPage;
  /** How many sessions `filter` selects, with sums over them (what `pageSessions` counts). */
  sessionTotals(filter?: SessionFilter): SessionTotals;
  /** Distinct projects, models and versions of the sessions `filter` selects. */
  sessionFacets(filter?: SessionFilter): SessionFacets;
  /**
   * What a loaded session's header adds to its summary, from the stored rows (no transcript is read); undefined when
   * the index cannot tell (no such session, or a file of it cannot be read now: load it).
   */
  sessionHeader(ref: string): SessionHeaderParts | undefined;
  /**
   * The calls and responses a resume or fork copied into the session's transcript from sessions that own them
   * (`session-copies.ts`): the lists and `usage` count them there. Empty when it holds no copies.
   */
  sessionCopies(ref: string): readonly CopiedFrom[];
  /** A fork's or resume's: when its own records start, after the conversation it copied (`sessions.own_from_ms`). */
  sessionOwnFrom(ref: string): number | undefined;
  /**
   * The session a reference names: its key, its id, `<id>@<project folder>` or a unique prefix of an id.
   * AmbiguousSessionError (listing references that tell them apart) when several match.
   */
  getSession(ref: string, lookup?: SessionLookup): SessionSummary | undefined;
  /** A reference to the session a stored transcript file belongs to (see `SessionSummary.ref`). */
  sessionIdOfFile(path: string): string | undefined;
  /** The paths, as stored, of the transcript files with this inode (one file named through a symbolic link too). */
  filesWithInode(ino: number): readonly string[];
  /**
   * The stored files (of `paths`, else all) whose last bytes were held back, unreported, while they may still have
   * been being written: a refresh after they settle reads them again and reports a record left cut short.
   */
  heldWhileWriting(paths?: readonly string[]): string[];
  sessionFiles(ref: string): SessionFiles | undefined;
  loadSession(ref: string): Promise<Session>;
  /** The session opened to be written a part at a time, in memory that does not grow with it (`openSessionStream`). */
  streamSession(ref: string): Promise<SessionStream>;
  /** The bytes of the session's files, as last indexed. */
  sessionBytes(ref: string): number;
  /** The session's files held at their last complete version, with the newer partial copies kept beside them. */
  sessionVersions(ref: string): Promise<SessionVersions>;
  /** The session as its newer partial copies make it (undefined when no file of it is held). */
  loadPartialSession(ref: string): Promise<Session | undefined>;
  stats(filter?: SessionFilter & { readonly tool?: string }): ToolStats;
  calls(filter?: CallFilter): CallRow[];
  /** Calls and errors per time bucket, project and tool, a duration histogram and error categories, in SQL. */
  analytics(filter: AnalyticsFilter): CallAnalytics;
  search(query: string, filter?: SearchFilter): Promise<SearchHit[]>;
  /** Each API response once, priced, with its session, thread and project; oldest first. */
  usageResponses(filter?: UsageFilter): UsageResponse[];
  /** The price table session costs and `usageResponses` use. */
  readonly prices: PriceTable;
  /** Telemetry received over OTLP, stored and joined to the transcripts (telemetry/). */
  readonly telemetry: TelemetryStore;
  /** Problems of the last refresh that are not stored with a file: unreadable files and folders. */
  refreshProblems(): readonly ParseIssue[];
  /**
   * A stamp that changes whenever the database may have: a write of this connection or a commit of any other (a CLI
   * `index` next to `serve`). Cheap (two pragmas), for caches of answers.
   */
  dataVersion(): string;
  issues(filter?: IssueFilter): StoredIssue[];
  /**
   * Delete a session from the archive on purpose: its archived bytes go; files still on disk stay indexed, files
   * that are gone leave the index (and the session with them).
   */
  forgetSession(sessionId: string): Promise<ForgetReport>;
  /** Another process's build of this database (`index --rebuild`) as of its last commit; undefined when none runs. */
  buildingElsewhere(): BuildProgress | undefined;
  /** Whether refreshes archive transcript bytes (the stored setting; default on). */
  archiving(): boolean;
  setArchiving(on: boolean): void;
  /** Whether the archive holds files under this path (a Claude home whose transcripts were all deleted). */
  hasArchivedFilesUnder(path: string): boolean;
  /** The paths named on the command line that this index was built from (`Settings.namedRoots`). */
  namedRoots(): string[];
  addNamedRoots(paths: readonly string[]): void;
  /** True the first time it is called with this key on this database (for one-time notices). */
  firstTime(key: string): boolean;
  /** What the archive holds: files, transcript bytes, bytes stored, and versions kept beside files (`keepVersion`). */
  archiveSize(): { readonly files: number; readonly raw: number; readonly stored: number; readonly versions: number };
  /** A transcript's bytes: the file on disk, else what the archive kept of it (ENOENT when neither). */
  readonly openBytes: OpenBytes;
  close(): void;
}

/** What opening the file gave: the database, or the failure and whether the file was recognised as ours first. */
type Opened =
  | { readonly db: Database.Database }
  | {
      readonly error: unknown /** Damage found after this is damage of an index of ours. */;
      readonly recognised: boolean;
    };

function openDb(dbPath: string, busyTimeoutMs: number, rebuild: boolean): Opened {
  const db = openDatabase(dbPath, { timeout: busyTimeoutMs });
  let recognised = false;
  try {
    // Before anything that writes (WAL mode, the stamp, the migration): another program's database is refused.
    const kind = dbPath === ':memory:' ? 'new' : recogniseIndex(db, dbPath, SCHEMA_VERSION);
    recognised = true;
    // Only a new file takes it (before WAL mode writes the header). 4 KiB pages (SQLite's default) since tool payloads
    // left the index (schema 24): a smaller file (less of a page left empty at the end of each of the many small trees
    // and archive chunks), cold index time unchanged.
    db.pragma('page_size = 4096');
    if (kind === 'new') useIncrementalVacuum(db);
    if (dbPath !== ':memory:') db.pragma('journal_mode = WAL');
    // Recognised (or new): stamped as ours, so that it is recognised by its header from now on.
    if (kind !== 'stamped') db.pragma(`application_id = ${INDEX_APPLICATION_ID}`);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // A bigger page cache than the 2 MiB default: a large import touches index pages all over the file.
    db.pragma('cache_size = -32768');
    migrate(db, { rebuild });
    // Touch the main tables so a damaged file fails here, not later.
    db.prepare('SELECT COUNT(*) FROM files').pluck().get();
    return { db };
  } catch (error) {
    db.close();
    return { error, recognised };
  }
}

/**
 * Open the database, moving a corrupt file of ours aside (with a warning) and starting afresh. A newer index is
 * refused, never moved.
 */
function openOrRebuild(options: OpenIndexOptions): Database.Database {
  const { dbPath } = options;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const rebuild = options.rebuild === true;
  const opened = openDb(dbPath, busyTimeoutMs, rebuild);
  if ('db' in opened) return opened.db;
  const { error, recognised } = opened;
  if (isBusy(error)) throw new IndexBusyError(dbPath, busyTimeoutMs);
  if (error instanceof NewerSchemaError) throw new NewerIndexError(dbPath, error.version, SCHEMA_VERSION);
  if (error instanceof NewerDerivedError) throw new NewerDerivedIndexError(dbPath, error.version, DERIVED_VERSION);
  if (!isCorruption(error) || dbPath === ':memory:') throw error;
  // Only a damaged SQLite file is moved aside: never a file that was not a database (checked again, just before).
  assertSqliteFile(dbPath);
  // Nor a damaged database that is not recognisably ours: one too damaged to read its tables must carry our stamp.
  if (!recognised && !headerIsOurs(dbPath)) {
    throw new NotAnIndexError(dbPath, 'it is a damaged SQLite database not recognisable as an AgentDash index');
  }
  const aside = `${dbPath}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(dbPath, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(dbPath + suffix)) renameSync(dbPath + suffix, aside + suffix);
  }
  // The new file private, as a first one is (`createPrivately`): the moved one took its permissions with it.
  createPrivately(dbPath);
  const again = openDb(dbPath, busyTimeoutMs, rebuild);
  if ('db' in again) {
    const moved = `index database ${dbPath} was unusable (${messageOf(error)}); moved it to ${aside} and rebuilt the index`;
    try {
      options.onWarning?.(`${moved}${salvagedWords(salvageArchive(again.db, aside))}`);
    } catch (failed) {
      // this index's own error (a full disk): the moved file's archive is read at the next open (`salvageSiblings`)
      options.onWarning?.(`${moved}; its archive is read at the next start (${messageOf(failed)})`);
    }
    return again.db;
  }
  // Another process making the same new index at that moment: busy, as on the first open.
  throw isBusy(again.error) ? new IndexBusyError(dbPath, busyTimeoutMs) : again.error;
}

/**
 * A filter whose `sessionId` (any session reference: id, `<id>@<folder>`, key, unique prefix) is replaced by the
 * stored session key. An unknown reference stays as it is and matches nothing; an ambiguous one throws.
 */
function bySessionKey<F extends { readonly sessionId?: string }>(store: Store, filter: F): F;
function bySessionKey<F extends { readonly sessionId?: string }>(store: Store, filter: F | undefined): F | undefined;
function bySessionKey<F extends { readonly sessionId?: string }>(store: Store, filter: F | undefined): F | undefined {
  if (filter?.sessionId === undefined) return filter;
  return { ...filter, sessionId: sessionKeyOfRef(store, filter.sessionId) ?? filter.sessionId };
}

/**
 * Open (creating or migrating) the index. A corrupt file of ours is moved aside and rebuilt, with a warning; a newer
 * index (`NewerIndexError`) and a file not ours (`NotAnIndexError`) are refused as they are.
 */
export function openIndex(options: OpenIndexOptions): AgentIndex {
  const { dbPath } = options;
  if (dbPath !== ':memory:') createPrivately(dbPath);
  let db: Database.Database;
  try {
    db = openOrRebuild(options);
  } catch (error) {
    throw asUnavailable(dbPath, error);
  }
  // A tool's current name by the rule of the agent whose file holds it (Codex's `shell` is `exec_command`).
  db.function('canonical_tool', { deterministic: true }, (agent: unknown, name: unknown) =>
    typeof name === 'string'
      ? adapterForFile({ agent: agentOfRow(typeof agent === 'string' ? agent : null) }).canonicalToolName(name)
      : null,
  );
  // an index moved aside beside this one (damaged, or by an older AgentDash that could not read it) holds archived
  // transcripts this one may lack: brought back once
  if (dbPath !== ':memory:')
    for (const { file, files } of salvageSiblings(db, dbPath))
      if (files > 0)
        options.onWarning?.(
          `brought back ${files} archived transcript${files === 1 ? '' : 's'} of files gone from disk from ${file}, an index moved aside`,
        );
  const store: Store = { db, now: options.now ?? Date.now, prices: options.prices ?? defaultPriceTable };
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  db.function('session_cost', { deterministic: true }, createSessionCostFunction(store.prices));
  const refresher = new Refresher(db);
  return {
    dbPath,
    refresh: (paths, refreshOptions) =>
      refresher.refresh(paths, refreshOptions).catch((error: unknown) => {
        throw isBusy(error) ? new IndexBusyError(dbPath, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS) : error;
      }),
    refreshProblems: () => refresher.problems(),
    dataVersion: () => `${dataVersion.get() as number}:${totalChanges.get() as number}`,
    listSessions: (filter) => listSessions(store, filter),
    sessionIds: () => sessionIdsOf(store),
    headlessCopies: (filter) => headlessCopies(store, filter),
    pageSessions: (filter, query) => pageSessions(store, filter, query),
    sessionFacets: (filter) => sessionFacets(store, filter ?? {}),
    sessionTotals: (filter) => sessionTotals(store, filter ?? {}),
    sessionHeader: (ref) => sessionHeader(store, ref),
    sessionCopies: (ref) => {
      const key = sessionKeyOfRef(store, ref);
      return key === undefined ? [] : sessionCopies(store, key);
    },
    sessionOwnFrom: (ref) => {
      const key = sessionKeyOfRef(store, ref);
      return key === undefined ? undefined : sessionOwnFrom(store, key);
    },
    getSession: (ref, lookup) => getSession(store, ref, lookup),
    sessionIdOfFile: (path) => sessionIdOfFile(store, path),
    filesWithInode: (ino) => filesWithInode(store, ino),
    heldWhileWriting: (paths) => heldWhileWriting(store, paths),
    sessionFiles: (sessionId) => sessionFiles(store, sessionId),
    loadSession: (sessionId) => loadSession(store, sessionId),
    streamSession: (ref) => streamSession(store, ref),
    sessionBytes: (ref) => sessionBytes(store, ref),
    sessionVersions: (ref) => sessionVersions(store, ref),
    loadPartialSession: (ref) => loadPartialSession(store, ref),
    stats: (filter) => stats(store, filter),
    calls: (filter) => calls(store, bySessionKey(store, filter)),
    analytics: (filter) => analytics(store, bySessionKey(store, filter)),
    search: (query, filter) => search(store, query, bySessionKey(store, filter)),
    issues: (filter) => issues(store, bySessionKey(store, filter)),
    forgetSession: (ref) => refresher.forgetSession(sessionKeyOfRef(store, ref) ?? ref),
    buildingElsewhere: () => buildingElsewhere(db),
    archiving: () => refresher.settings.archiving(),
    setArchiving: (on) => refresher.settings.setArchiving(on),
    firstTime: (key) => refresher.settings.firstTime(key),
    hasArchivedFilesUnder: (path) => hasArchivedFilesUnder(db, path),
    namedRoots: () => refresher.settings.namedRoots(),
    addNamedRoots: (paths) => refresher.settings.addNamedRoots(paths),
    archiveSize: () =>
      db.prepare(ARCHIVE_SIZE).get() as { files: number; raw: number; stored: number; versions: number },
    usageResponses: (filter) => usageResponses(store, bySessionKey(store, filter)),
    openBytes: archiveOf(db).openBytes,
    prices: store.prices,
    telemetry: createTelemetryStore(db, store.now),
    close: () => db.close(),
  };
}

export type { ParseIssue };
