import { useEffect, useState } from 'react';

export type Route =
  | { readonly page: 'sessions' }
  | {
      readonly page: 'session';
      readonly id: string;
      readonly call: string | undefined;
      /** Text to find in the session (a search hit opens the session with it). */
      readonly find: string | undefined;
    }
  | { readonly page: 'analytics' }
  | { readonly page: 'usage' }
  | { readonly page: 'waterfall'; readonly id: string };

export function parseHash(hash: string): Route {
  const h = hash.replace(/^#/, '');
  const [path = '', query = ''] = h.split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 's' && parts[1] && parts[2] === 'waterfall') {
    return { page: 'waterfall', id: decodeURIComponent(parts[1]) };
  }
  if (parts[0] === 's' && parts[1]) {
    return {
      page: 'session',
      id: decodeURIComponent(parts[1]),
      call: params.get('call') ?? undefined,
      find: params.get('find') ?? undefined,
    };
  }
  if (parts[0] === 'analytics') return { page: 'analytics' };
  if (parts[0] === 'usage') return { page: 'usage' };
  return { page: 'sessions' };
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

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const on = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
