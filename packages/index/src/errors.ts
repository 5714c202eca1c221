import { AgentDashError } from '@agentdash/core';

/** A session id prefix matched several sessions. */
export class AmbiguousSessionError extends AgentDashError {
  readonly prefix: string;
  readonly candidates: readonly string[];
  constructor(prefix: string, candidates: readonly string[]) {
    super(
      'AMBIGUOUS_SESSION',
      `session prefix "${prefix}" matches ${candidates.length} sessions: ${candidates.slice(0, 5).join(', ')}${
        candidates.length > 5 ? ', …' : ''
      }`,
    );
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
