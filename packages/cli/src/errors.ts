import { AgentDashError, messageOf } from '@agentdash/core/base';

/** Exit codes: stable, documented in docs/cli-json.md. */
export const ExitCode = {
  ok: 0,
  internal: 1,
  badArguments: 2,
  badPath: 3,
  unreadableFile: 4,
  unknownSession: 5,
  cannotServe: 6,
  indexBusy: 7,
  teamDb: 8,
  teamUnknownName: 9,
  teamDuplicateName: 10,
  teamRefused: 11,
  teamRejected: 12,
  nativeAddon: 13,
  indexDamaged: 14,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Wrong command-line usage. */
export class UsageError extends AgentDashError {
  constructor(message: string) {
    super('BAD_ARGUMENTS', message);
  }
}

/** A server that cannot listen where it was asked to (port in use, not permitted, no such address). */
export class CannotServeError extends AgentDashError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CANNOT_SERVE', message, options);
  }
}

/** `show SESSION --call ID`: no call of the session has that id. */
export class UnknownCallError extends AgentDashError {
  constructor(message: string) {
    super('UNKNOWN_CALL', message);
  }
}

/** `show SESSION --call ID`: several calls' ids begin with ID (`candidates`, as an ambiguous SESSION's). */
export class AmbiguousCallError extends AgentDashError {
  constructor(
    message: string,
    readonly candidates: readonly string[],
  ) {
    super('AMBIGUOUS_CALL', message);
  }
}

/** Why a file cannot be written, in words (the error's own message when its code is not one of these). */
const writeReasons: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EIO: 'input/output error',
};

/** An output file (`export -o FILE`) that cannot be opened, written or closed. */
export class CannotWriteError extends AgentDashError {
  constructor(path: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const reason = (typeof code === 'string' ? writeReasons[code] : undefined) ?? messageOf(cause);
    super('CANNOT_WRITE', `cannot write ${path}: ${reason}`, { cause });
  }
}

/** Failures of the program itself, not of the user's input: out of stack, out of memory, a string too long. */
const INTERNAL_HINT = 'this is a bug in agentdash: run again with --verbose for the stack, and please report it';

/** The most references of the sessions an ambiguous SESSION matched that `--json` lists in its error. */
export const MAX_CANDIDATES = 20;

/** The references an AmbiguousSessionError lists (read by its shape: this module loads no index code). */
function candidatesOf(error: unknown): string[] {
  const candidates = (error as { candidates?: unknown } | null)?.candidates;
  return Array.isArray(candidates) ? candidates.filter((c) => typeof c === 'string').slice(0, MAX_CANDIDATES) : [];
}

/** The exit code and one-line message for an error thrown by a command; for an ambiguous SESSION, its candidates. */
export function classify(error: unknown): {
  code: ExitCodeValue;
  kind: string;
  message: string;
  candidates?: string[];
} {
  const message = messageOf(error);
  const errorCode = (error as { code?: unknown } | null)?.code;
  switch (errorCode) {
    case 'BAD_ARGUMENTS':
      return { code: ExitCode.badArguments, kind: 'bad-arguments', message };
    case 'NOT_A_TRANSCRIPT':
    case 'PATH_NOT_FOUND':
    case 'INDEX_UNAVAILABLE':
    case 'CANNOT_WRITE':
      return { code: ExitCode.badPath, kind: 'bad-path', message };
    case 'UNREADABLE_FILE':
      return { code: ExitCode.unreadableFile, kind: 'unreadable-file', message };
    case 'INDEX_BUSY':
      return { code: ExitCode.indexBusy, kind: 'index-busy', message };
    case 'UNKNOWN_SESSION':
      return { code: ExitCode.unknownSession, kind: 'unknown-session', message };
    case 'UNKNOWN_CALL':
      return { code: ExitCode.unknownSession, kind: 'unknown-call', message };
    case 'AMBIGUOUS_CALL':
      return { code: ExitCode.unknownSession, kind: 'ambiguous-call', message, candidates: candidatesOf(error) };
    case 'AMBIGUOUS_SESSION':
      return { code: ExitCode.unknownSession, kind: 'ambiguous-session', message, candidates: candidatesOf(error) };
    case 'CANNOT_SERVE':
      return { code: ExitCode.cannotServe, kind: 'cannot-serve', message };
    case 'TEAM_DB_UNREACHABLE':
    case 'TEAM_SCHEMA_AHEAD':
      return { code: ExitCode.teamDb, kind: 'team-db', message };
    case 'TEAM_UNKNOWN_NAME':
      return { code: ExitCode.teamUnknownName, kind: 'team-unknown-name', message };
    case 'TEAM_DUPLICATE_NAME':
      return { code: ExitCode.teamDuplicateName, kind: 'team-duplicate-name', message };
    case 'TEAM_UNREACHABLE':
      return { code: ExitCode.teamDb, kind: 'team-unreachable', message };
    case 'TEAM_REFUSED':
      return { code: ExitCode.teamRefused, kind: 'team-refused', message };
    case 'TEAM_REJECTED':
      return { code: ExitCode.teamRejected, kind: 'team-rejected', message };
    case 'NATIVE_ADDON':
      return { code: ExitCode.nativeAddon, kind: 'native-addon', message };
    case 'INDEX_DAMAGED':
      return { code: ExitCode.indexDamaged, kind: 'index-damaged', message };
    default:
      // A RangeError here is never the user's argument: stack overflow, invalid string or array length.
      return { code: ExitCode.internal, kind: 'internal', message: `internal error: ${message} (${INTERNAL_HINT})` };
  }
}
