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

/**
 * Whether the client reached this server over TLS: ours (`--tls-cert`), or a reverse proxy's that says so
 * (`X-Forwarded-Proto`, docs/team.md). A client that claims HTTPS falsely only misleads itself.
 */
export function reachedOverTls(c: Context): boolean {
  return (
    new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https'
  );
}

/** The origin the client reached this server at (`https://team.example:4317`): the host it asked for, behind a proxy too. */
export function reachedOrigin(c: Context): string {
  const url = new URL(c.req.url);
  const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim() || url.host;
  return `${reachedOverTls(c) ? 'https' : 'http'}://${host}`;
}
