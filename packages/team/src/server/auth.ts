/**
 * Team tokens, checked against the database on every request (a revoke takes effect at once): `Authorization:
 * Bearer`, or for the dashboard in a browser `?token=` once, then a cookie.
 */
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Sql } from '../pg/db.js';
import { authenticate, type Principal } from '../pg/people.js';
import { reachedOverTls, TeamHttpError } from './team-http.js';

const TOKEN_COOKIE = 'agentdash_team_token';

export type TeamEnv = { Variables: { principal: Principal } };

/** The request's token: the Bearer header, else `?token=` (browsers), else the cookie. */
function tokenOf(c: Parameters<MiddlewareHandler>[0], browser: boolean): { token?: string; fromQuery: boolean } {
  const auth = c.req.header('authorization');
  if (auth?.startsWith('Bearer ')) return { token: auth.slice(7).trim(), fromQuery: false };
  if (!browser) return { fromQuery: false };
  const query = c.req.query('token');
  if (query) return { token: query, fromQuery: true };
  const cookie = getCookie(c, TOKEN_COOKIE);
  return cookie ? { token: cookie, fromQuery: false } : { fromQuery: false };
}

/**
 * Who the request is (`c.get('principal')`), or a 401. `browser`: also `?token=` (kept in an httpOnly cookie, the
 * page then reloaded without it) and the cookie.
 */
export function teamAuth(sql: Sql, options: { readonly browser: boolean }): MiddlewareHandler<TeamEnv> {
  return async (c, next) => {
    const { token, fromQuery } = tokenOf(c, options.browser);
    if (token === undefined || token === '') {
      throw new TeamHttpError(401, 'a team token is required: Authorization: Bearer <token>', 'TEAM_NO_TOKEN');
    }
    const principal = token.length <= 200 ? await authenticate(sql, token) : undefined;
    if (!principal) throw new TeamHttpError(401, 'unknown or revoked token', 'TEAM_BAD_TOKEN');
    c.set('principal', principal);
    if (fromQuery) {
      // Secure over TLS: a browser then never sends it over plain HTTP.
      setCookie(c, TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/', secure: reachedOverTls(c) });
      if (c.req.method === 'GET' && !new URL(c.req.url).pathname.startsWith('/api/')) {
        const url = new URL(c.req.url);
        url.searchParams.delete('token');
        return c.redirect(`${url.pathname}${url.search}`, 302);
      }
    }
    await next();
  };
}
