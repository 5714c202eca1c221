/** The team server's HTTP errors: a status, a one-line message and a stable code, in the envelope of every answer. */
import type { Context } from 'hono';

export type TeamStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 500 | 503;

export class TeamHttpError extends Error {
  constructor(
    readonly status: TeamStatus,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** `{ success: false, error, code }` with its status. */
export function teamErrorResponse(c: Context, error: TeamHttpError): Response {
  return c.json({ success: false, error: error.message, code: error.code }, error.status);
}

/** `{ success: true, data }`. */
export function ok<T>(c: Context, data: T): Response {
  return c.json({ success: true, data });
}
