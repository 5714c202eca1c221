import { createHash, timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The token's cookie, named by the port the dashboard was reached at (its Host header, checked before): browsers keep
 * cookies by host, not port, so two dashboards of one machine on two ports overwrote each other's token, the second
 * one's `?token=` logging the browser out of the first.
 */
const tokenCookieOf = (host: string | undefined): string =>
  `agentdash_token_${/:(\d+)$/.exec(host ?? '')?.[1] ?? 'default'}`;

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Host header values accepted for a server bound to host:port (DNS-rebinding protection). */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set<string>();
  const bracket = (h: string) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
  names.add(bracket(host.toLowerCase()));
  if (host === '0.0.0.0' || host === '::' || host === '[::]') {
    // every interface: the names this machine answers to
    for (const list of Object.values(networkInterfaces())) {
      for (const info of list ?? []) names.add(bracket(info.address.toLowerCase()));
    }
    names.add(hostname().toLowerCase());
    names.add(`${hostname().toLowerCase()}.local`);
  }
  if (isLoopbackHost(host) || host === '0.0.0.0' || host === '::' || host === '[::]') {
    names.add('127.0.0.1');
    names.add('localhost');
    names.add('[::1]');
  }
  const out = new Set<string>();
  for (const n of names) {
    out.add(`${n}:${port}`);
    if (port === 80) out.add(n);
  }
  return out;
}

/** Constant-time comparison of two secrets (hashed first so lengths never leak). */
function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/**
 * Security headers on every response. Set before the handler runs, so every `c.json`/`c.body` answer carries them
 * from the start: set after it, each answer was copied into a new Response with a streamed body, which the Node
 * adapter then pumps chunk by chunk (a large share of the event loop's time under many concurrent clients).
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    await next();
  };
}

export function hostCheck(host: string, port: number): MiddlewareHandler {
  const allowed = allowedHosts(host, port);
  return async (c, next) => {
    const header = (c.req.header('host') ?? '').toLowerCase();
    if (!allowed.has(header)) return c.json({ success: false, error: 'forbidden host' }, 403);
    await next();
  };
}

/** Every request must carry the token: `?token=` (then kept in a cookie), the cookie, or `Authorization: Bearer`. */
export function tokenCheck(token: string): MiddlewareHandler {
  return async (c, next) => {
    const fromQuery = c.req.query('token');
    const auth = c.req.header('authorization');
    const fromBearer = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
    const cookieName = tokenCookieOf(c.req.header('host'));
    const fromCookie = getCookie(c, cookieName);
    const candidates = [fromQuery, fromBearer, fromCookie].filter((t): t is string => typeof t === 'string');
    const ok = candidates.some((t) => safeEqual(t, token));
    if (!ok) return c.json({ success: false, error: 'missing or invalid token' }, 401);
    if (fromQuery !== undefined && safeEqual(fromQuery, token)) {
      setCookie(c, cookieName, token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      // A page opened with ?token= is redirected to the same address without it, so the token does not stay in
      // the address bar or the history; the cookie carries it from now on.
      if (c.req.method === 'GET' && !new URL(c.req.url).pathname.startsWith('/api/')) {
        const url = new URL(c.req.url);
        url.searchParams.delete('token');
        return c.redirect(`${url.pathname}${url.search}`, 302);
      }
    }
    await next();
  };
}
