import { messageOf } from '@agentdash/core/base';
import { DAMAGED_INDEX_MEND, isCorruption } from '@agentdash/index';

/** The statuses the API answers with. */
export type HttpStatus = 400 | 404 | 409 | 422 | 500 | 503;

/** An error the API answers with its own status and message (anything else is a 500 "internal error"). */
export class HttpError extends Error {
  constructor(
    readonly status: HttpStatus,
    message: string,
    /** The stable code of the operational error it stands for, when one (`UNKNOWN_SESSION`, `INDEX_BUSY`, …). */
    readonly code?: string,
    /** The sessions an ambiguous reference names (`AMBIGUOUS_SESSION`), for the answer to list them as links. */
    readonly candidates?: readonly string[],
  ) {
    super(message);
  }
}

/** The 404 for a session that is not there, everywhere one is looked up (its code is `UNKNOWN_SESSION`). */
export const sessionNotFound = (): HttpError => new HttpError(404, 'session not found', 'UNKNOWN_SESSION');

/**
 * Operational errors of core and the index, by their stable `code`, → HTTP status: 404 only for what is not there,
 * 409 for a reference that names several sessions, 422 for a transcript too large to read, 503 for an index that is
 * busy or cannot be opened.
 */
const statusByErrorCode = {
  UNKNOWN_SESSION: 404,
  AMBIGUOUS_SESSION: 409,
  INDEX_BUSY: 503,
  INDEX_UNAVAILABLE: 503,
  INDEX_DAMAGED: 503,
  // a team server's stored transcript larger than it reads (team/src/pg/transcripts.ts)
  TEAM_TRANSCRIPT_SIZE: 422,
} as const satisfies Readonly<Record<string, HttpStatus>>;

/**
 * The HTTP answer for an error: itself when it is one, else by its `code` (errors that crossed a worker boundary
 * keep their code, not their class); undefined for anything else (a bug: a 500).
 */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (isCorruption(error)) {
    // SQLite's word of a damaged index file, met by a query (opening it checks less): what mends it, not a 500
    return new HttpError(
      503,
      `the index database is damaged (${messageOf(error)}): stop agentdash serve, then ${DAMAGED_INDEX_MEND}`,
      'INDEX_DAMAGED',
    );
  }
  const { code, candidates } = (error ?? {}) as { code?: unknown; candidates?: unknown };
  if (typeof code !== 'string' || !Object.hasOwn(statusByErrorCode, code)) return undefined;
  const message = error instanceof Error ? error.message : code;
  const names = Array.isArray(candidates) ? candidates.filter((c): c is string => typeof c === 'string') : [];
  return new HttpError(
    statusByErrorCode[code as keyof typeof statusByErrorCode],
    message,
    code,
    names.length > 0 ? names : undefined,
  );
}

/** The JSON body of an error answer: `{ success: false, error, code?, candidates? }`. */
export function errorBodyOf(http: HttpError): {
  readonly success: false;
  readonly error: string;
  readonly code?: string;
  readonly candidates?: readonly string[];
} {
  return {
    success: false,
    error: http.message,
    ...(http.code === undefined ? {} : { code: http.code }),
    ...(http.candidates === undefined ? {} : { candidates: http.candidates }),
  };
}
