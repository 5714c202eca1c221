/**
 * What a change of page tells those who cannot see it change: the document's title names the page, and the focus,
 * lost with the page it was on (a link of the list that opened a session) or on the tab that opened the page, goes to
 * the new page's heading (not to the document's start, nor left where nothing says the page changed).
 * @module
 */
import { shortId } from '@agentdash/core/present';
import { useEffect, useRef } from 'react';
import type { Route } from './router';

/** The page's name in the document's title: `Session 4d5611e5 · AgentDash`. */
export function pageTitle(route: Route): string {
  switch (route.page) {
    case 'sessions':
      return 'Sessions · AgentDash';
    case 'session':
      return `Session ${shortId(route.id)} · AgentDash`;
    case 'waterfall':
      return `Waterfall of ${shortId(route.id)} · AgentDash`;
    case 'files':
      return `Files of ${shortId(route.id)} · AgentDash`;
    case 'analytics':
      return 'Analytics · AgentDash';
    case 'usage':
      return 'Usage · AgentDash';
    default:
      return 'Page not found · AgentDash';
  }
}

/** A page, apart from its query (a filter or a call to jump to is the same page). */
const pageKey = (route: Route) => ('id' in route ? `${route.page} ${route.id}` : route.page);

/** The header's tabs (and the logo's link home): what opens a page by itself. */
const TABS = '.topbar .nav, .topbar .brand';

/** How long the new page's heading is waited for (a session's comes with its header). */
const HEADING_WAIT_MS = 2000;

export function usePageChange(route: Route): void {
  const key = pageKey(route);
  const title = pageTitle(route);
  useEffect(() => {
    document.title = title;
  }, [title]);
  const last = useRef(key);
  useEffect(() => {
    if (last.current === key) return;
    last.current = key;
    // what had the focus when the page changed: a tab the person opened the page with, or nothing (a link gone)
    const opener = document.activeElement;
    const byTab = opener?.closest(TABS) != null;
    // Back to the sessions list: the list gives the focus back to the row opened itself (list-place.ts), as the
    // list's data comes; only a tab that opened it hands the focus to its heading
    if (key === 'sessions' && !byTab) return;
    const until = Date.now() + HEADING_WAIT_MS;
    let timer: number | undefined;
    const place = () => {
      // Taken from nowhere: only a focus the old page took with it, or the tab that opened the page, is placed (a
      // field, a row, a call keep theirs).
      const active = document.activeElement;
      const kept = active !== null && active !== document.body && active.isConnected;
      // moved since (the person tabbed on while the page loaded), or not a tab: left where it is
      if (kept && (active !== opener || !byTab)) return;
      const heading = document.querySelector<HTMLElement>('#main h1');
      if (heading === null && Date.now() < until) {
        timer = window.setTimeout(place, 50);
        return;
      }
      const target = heading ?? document.querySelector<HTMLElement>('#main');
      if (target === null) return;
      if (!target.hasAttribute('tabindex')) {
        target.tabIndex = -1;
        // focusable for this once: a later click inside it would otherwise outline the whole page
        target.addEventListener('blur', () => target.removeAttribute('tabindex'), { once: true });
      }
      target.focus({ preventScroll: true });
    };
    timer = window.setTimeout(place, 0);
    return () => window.clearTimeout(timer);
  }, [key]);
}
