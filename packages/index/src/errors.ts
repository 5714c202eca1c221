import { AgentDashError, messageOf } from '@agentdash/core/base';

/** A session reference (an id or a prefix of one) matched several sessions. */
export class AmbiguousSessionError extends AgentDashError {
  readonly prefix: string;
  /** The sessions it matched, at most `MAX_CANDIDATES` (`more`: others too). */
  readonly candidates: readonly string[];
  readonly more: boolean;
  constructor(prefix: string, candidates: readonly string[], more = false) {
    const count = more ? `more than ${candidates.length}` : `${candidates.length}`;
    super(
      'AMBIGUOUS_SESSION',
      `session "${prefix}" matches ${count} sessions; name one of them: ${candidates.slice(0, 5).join(', ')}${
        candidates.length > 5 || more ? ', …' : ''
      } (or give its file)`,
    );
    this.more = more;
    this.prefix = prefix;
    this.candidates = candidates;
  }
}

/** No session with this id (or prefix) in the index. */
export class UnknownSessionError extends AgentDashError {
  readonly sessionId: string;
  constructor(sessionId: string) {
    super('UNKNOWN_SESSION', `no session matches "${sessionId}"`);
    this.sessionId = sessionId;
  }
}

/** Another process held the index database's write lock for longer than the wait allowed. */
export class IndexBusyError extends AgentDashError {
  readonly dbPath: string;
  constructor(dbPath: string, waitedMs: number) {
    super(
      'INDEX_BUSY',
      `the index ${dbPath} stayed locked by another agentdash process for ${Math.round(waitedMs / 1000)} s; try again when it has finished`,
    );
    this.dbPath = dbPath;
  }
}

/** Whether SQLite gave up waiting for a lock. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Whether an error is SQLite's word that the database file is damaged (or not a database): a rebuild mends it. */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'));
}

/** What mends a damaged index, said wherever one is met (the CLI's error, the API's 503). */
export const DAMAGED_INDEX_MEND =
  '`agentdash index --rebuild` moves the file aside (kept) and builds the index again from the transcripts, with what still reads of its archive';

/**
 * The index file is damaged where a command read it, past what opening it checks (SQLite reads a damaged page only
 * when a query reaches it): named, with what mends it, instead of an internal error.
 */
export class IndexDamagedError extends AgentDashError {
  readonly dbPath: string;
  constructor(dbPath: string, cause: unknown) {
    super('INDEX_DAMAGED', `the index database ${dbPath} is damaged (${messageOf(cause)}): ${DAMAGED_INDEX_MEND}`, {
      cause,
    });
    this.dbPath = dbPath;
  }
}

/**
 * `error` as an `IndexDamagedError` of `dbPath` when it is SQLite's word of a damaged file, as an
 * `IndexUnavailableError` when it says the disk is full (no bug of ours: space to free) or the file cannot be written
 * (read-only to this user); else itself.
 */
export function explainDamage(dbPath: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL') {
    return new IndexUnavailableError(
      dbPath,
      `the disk is full (${messageOf(error)}): free some space, then run it again; nothing archived is lost`,
      { cause: error },
    );
  }
  // The file moved or replaced while this ran (another process's `index --rebuild` moved it aside)
  if (code === 'SQLITE_READONLY_DBMOVED') {
    return new IndexUnavailableError(
      dbPath,
      `it was moved or replaced while this ran (${messageOf(error)}): run it again`,
      { cause: error },
    );
  }
  // A file this user may read but not write (a read-only index opens; its first write fails)
  if (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) {
    return new IndexUnavailableError(
      dbPath,
      `it cannot be written (${messageOf(error)}): make it and its folder writable by this user, or choose another --db path`,
      { cause: error },
    );
  }
  return isCorruption(error) && !(error instanceof IndexDamagedError) ? new IndexDamagedError(dbPath, error) : error;
}

/** The index database cannot be opened or created where it was asked for (a directory, no permission, read-only). */
export class IndexUnavailableError extends AgentDashError {
  readonly dbPath: string;
  constructor(dbPath: string, reason: string, options?: ErrorOptions) {
    super('INDEX_UNAVAILABLE', `cannot use ${dbPath} as the index database: ${reason}`, options);
    this.dbPath = dbPath;
  }
}

/**
 * The file at the index path exists but is not an AgentDash index (a transcript, a note, another program's SQLite
 * database): it is never moved, rebuilt or written. Same code as `IndexUnavailableError`, so the edges map it alike.
 */
export class NotAnIndexError extends IndexUnavailableError {
  constructor(dbPath: string, why: string) {
    super(dbPath, why);
    this.message = `${dbPath} is not an AgentDash index database (${why}); choose another --db path`;
  }
}

/**
 * The index was written by a newer AgentDash (a schema version this program does not know). It is left as it is:
 * moving it aside would hide what only it holds (the archive of transcripts Claude Code has deleted since).
 */
export class NewerIndexError extends IndexUnavailableError {
  readonly version: number;
  constructor(dbPath: string, version: number, known: number) {
    super(dbPath, `schema ${version}`);
    this.version = version;
    this.message =
      `the index ${dbPath} was written by a newer AgentDash (schema ${version}; this one knows up to ${known}). ` +
      'Upgrade AgentDash, or choose another --db path; the index is left as it is';
  }
}

/**
 * The index's derived tables were built by a newer AgentDash (its `derived_version` is higher than this program's).
 * Rebuilding them for this one would make the newer one rebuild them again on its next run: refused, the index left as
 * it is, unless a downgrade is asked for (`OpenIndexOptions.rebuild`, `agentdash index --rebuild`).
 */
export class NewerDerivedIndexError extends IndexUnavailableError {
  readonly version: number;
  constructor(dbPath: string, version: number, ours: number) {
    super(dbPath, `derived data ${version}`);
    this.version = version;
    this.message =
      `the index ${dbPath} was built by a newer AgentDash (derived data ${version}; this one's ${ours}): this one ` +
      'would rebuild it, and the newer one again after it. Upgrade AgentDash, choose another --db path, or rebuild ' +
      'it for this version with "agentdash index --rebuild" (its archive is kept)';
  }
}

/**
 * Another version of AgentDash rebuilt the index's derived tables in its own shape while this one had it open (its
 * `derived_version` is no longer this program's): this one writes nothing more into them. The way on depends on which
 * is newer: a newer one's index this one refuses when it starts again (`NewerDerivedIndexError`), so it is upgraded;
 * an older one's (its `index --rebuild`) this one rebuilds for itself when restarted. The archive is left as it is.
 */
export class OtherBuildError extends IndexUnavailableError {
  constructor(dbPath: string, found: number, ours: number) {
    super(dbPath, `derived data ${found}`);
    this.message =
      `the index ${dbPath} was rebuilt by another version of AgentDash while this one ran (its derived data ` +
      `${found}, this one's ${ours}): ` +
      (found > ours
        ? 'a newer one, whose index this one cannot read: upgrade this AgentDash'
        : 'an older one: restart this AgentDash, which rebuilds it for itself') +
      ', and run one version at a time on one index';
  }
}
