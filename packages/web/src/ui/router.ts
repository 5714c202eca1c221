import { baseName, shortId } from '@agentdash/core/present';
import { useEffect, useState } from 'react';

export type Route =
  | {
      readonly page: 'sessions';
      /** The list's filters and order (`pages/sessions/list-url.ts`). */
      readonly query: string;
    }
  | {
      readonly page: 'session';
      readonly id: string;
      readonly call: string | undefined;
      /** Text to find in the session (a search hit opens the session with it). */
      readonly find: string | undefined;
    }
  | {
      readonly page: 'analytics';
      /** The page's filters (`pages/analytics/analytics-address.ts`). */
      readonly query: string;
    }
  | {
      readonly page: 'usage';
      /** The page's period, filters and metric (`pages/usage/usage-address.ts`). */
      readonly query: string;
    }
  | { readonly page: 'waterfall'; readonly id: string }
  | { readonly page: 'files'; readonly id: string }
  | {
      /** An address of no page (mistyped, cut, or of another version): said as such, not shown as another page. */
      readonly page: 'unknown';
      /** The address as it was asked. */
      readonly address: string;
      /** The session an address under `#/s/<id>/` or `#/session/<id>` names (no page of it): linked to. */
      readonly session?: string;
    };

/** A percent-encoded part decoded; undefined when it is no valid encoding (`%E0%A4%A`, cut when pasted). */
function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

export function parseHash(hash: string): Route {
  const h = hash.replace(/^#/, '');
  const [path = '', query = ''] = h.split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/');
  // `#/…`: the parts after the leading slash (`#…` without it reads the same)
  if (parts[0] === '') parts.shift();
  if (parts.at(-1) === '' && parts.length > 1) parts.pop();
  const [first = '', id = '', view, ...more] = parts;
  const session = first === 's' && id !== '' && more.length === 0 ? decoded(id) : undefined;
  if (session !== undefined) {
    if (view === 'waterfall') return { page: 'waterfall', id: session };
    if (view === 'files') return { page: 'files', id: session };
    if (view === undefined) {
      return {
        page: 'session',
        id: session,
        call: params.get('call') ?? undefined,
        find: params.get('find') ?? undefined,
      };
    }
  }
  if (parts.length === 1) {
    if (first === 'analytics') return { page: 'analytics', query };
    if (first === 'usage') return { page: 'usage', query };
  }
  if (parts.length <= 1 && first === '') return { page: 'sessions', query };
  // `#/session/<id>` and `#/sessions/<id>` (an address written by hand, or by another tool) name a session too
  const named = ['s', 'session', 'sessions'].includes(first) && id !== '' ? decoded(id) : undefined;
  return named === undefined ? { page: 'unknown', address: hash } : { page: 'unknown', address: hash, session: named };
}

/**
 * A session reference's short form, shown beside its title or in a breadcrumb where no list of others is known: a
 * UUID's first 8 characters, another id whole (cut, with an ellipsis, past 24 characters: never `truth@0.` for
 * `truth@0.61.0`). A reference that is a path (a session id two folders hold, each copy named by its file) shows its
 * file's, not the path's first characters, which are the same for every session of a home. Where others are shown
 * too, core's `shortRefs` tells them apart.
 */
export function shortRef(id: string): string {
  return shortId(baseName(id));
}

export function sessionHref(id: string, call?: string, find?: string): string {
  const params = new URLSearchParams();
  if (call) params.set('call', call);
  if (find) params.set('find', find);
  const q = params.toString();
  return `#/s/${encodeURIComponent(id)}${q ? `?${q}` : ''}`;
}

export function waterfallHref(id: string): string {
  return `#/s/${encodeURIComponent(id)}/waterfall`;
}

export function filesHref(id: string): string {
  return `#/s/${encodeURIComponent(id)}/files`;
}

/**
 * The page's route, and how many times the address changed by navigation (a link, Back, typing it): a page that keeps
 * its state in the address (`history.replaceState`, which is no navigation) starts again from it when this changes.
 */
export function useRoute(): Route & { readonly visit: number } {
  const [route, setRoute] = useState(() => ({ ...parseHash(window.location.hash), visit: 0 }));
  useEffect(() => {
    // The address read when it changed, not when React renders: a page's own replacement (`replaceHash`, e.g. the
    // sessions list's delayed one) could land in between and undo the navigation.
    const on = () => {
      const next = parseHash(window.location.hash);
      setRoute((old) => ({ ...next, visit: old.visit + 1 }));
    };
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

/** Where the sessions list was last shown, with its filters and order (the breadcrumbs lead back there). */
let lastList = '#/';

/** The sessions list as it was last shown (`#/` before it was). */
export const listHref = (): string => lastList;

/** Note the sessions list's address (its filters and order), for `listHref`. */
export function noteListHref(hash: string): void {
  lastList = hash;
}

/**
 * Put a page's own state in the address without navigating (no history entry, no `hashchange`). Only while the address
 * is still of the same page: a replacement due after a navigation away (a click on a row) would undo it.
 */
export function replaceHash(hash: string): void {
  if (window.location.hash === hash) return;
  if (parseHash(window.location.hash).page !== parseHash(hash).page) return;
  try {
    window.history.replaceState(window.history.state, '', hash);
  } catch {
    // Too many replacements in a short time (Safari, Firefox): the address keeps its last state, the page works on.
  }
}
