import { AgentDashError } from '@agentdash/core';

/** Exit codes: stable, documented in docs/cli-json.md. */
export const ExitCode = {
  ok: 0,
  internal: 1,
  badArguments: 2,
  badPath: 3,
  unreadableFile: 4,
  unknownSession: 5,
  indexBusy: 6,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Wrong command-line usage. */
export class UsageError extends AgentDashError {
  constructor(message: string) {
    super('BAD_ARGUMENTS', message);
  }
}

/** The exit code and one-line message for an error thrown by a command. */
export function classify(error: unknown): { code: ExitCodeValue; kind: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const errorCode = (error as { code?: unknown } | null)?.code;
  switch (errorCode) {
    case 'BAD_ARGUMENTS':
      return { code: ExitCode.badArguments, kind: 'bad-arguments', message };
    case 'PATH_NOT_FOUND':
    case 'NOT_A_TRANSCRIPT':
      return { code: ExitCode.badPath, kind: 'bad-path', message };
    case 'UNREADABLE_FILE':
      return { code: ExitCode.unreadableFile, kind: 'unreadable-file', message };
    case 'INDEX_BUSY':
      return { code: ExitCode.indexBusy, kind: 'index-busy', message };
    case 'UNKNOWN_SESSION':
    case 'AMBIGUOUS_SESSION':
      return { code: ExitCode.unknownSession, kind: 'unknown-session', message };
    default:
      if (error instanceof RangeError) return { code: ExitCode.badArguments, kind: 'bad-arguments', message };
      return { code: ExitCode.internal, kind: 'internal', message: `internal error: ${message}` };
  }
}
