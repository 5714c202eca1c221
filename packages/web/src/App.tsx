import { Suspense, useEffect, useState } from 'react';
import { subscribeConnection } from './data/client';
import { subscribeTeamScope } from './data/team-scope';
import { IndexError, useIndexStatus } from './ui/IndexProgress';
import { focusContent, requestSearchFocus, singleKeyOff, typingIn } from './ui/keys';
import { lazyPage } from './ui/lazy-page';
import { NotFoundPage } from './ui/NotFoundPage';
import { PageError } from './ui/PageError';
import { usePageChange } from './ui/page-change';
import { RedactNotice } from './ui/RedactNotice';
import { type Route, useRoute } from './ui/router';
import { ShortcutsHelp } from './ui/ShortcutsHelp';
import { TeamScope } from './ui/TeamScope';
import { ThemeToggle } from './ui/ThemeToggle';

// Each page is its own chunk: the first screen loads only the page it shows; the others are fetched once the
// browser is idle, so moving between pages does not wait for the network.
const sessionsPage = lazyPage(() => import('./pages/SessionsPage').then((m) => m.SessionsPage));
const sessionPage = lazyPage(() => import('./pages/SessionPage').then((m) => m.SessionPage));
const analyticsPage = lazyPage(() => import('./pages/AnalyticsPage').then((m) => m.AnalyticsPage));
const usagePage = lazyPage(() => import('./pages/UsagePage').then((m) => m.UsagePage));
const waterfallPage = lazyPage(() => import('./pages/WaterfallPage').then((m) => m.WaterfallPage));
const filesPage = lazyPage(() => import('./pages/FilesPage').then((m) => m.FilesPage));
const { Page: SessionsPage } = sessionsPage;
const { Page: SessionPage } = sessionPage;
const { Page: AnalyticsPage } = analyticsPage;
const { Page: UsagePage } = usagePage;
const { Page: WaterfallPage } = waterfallPage;
const { Page: FilesPage } = filesPage;
const pages = [sessionsPage, sessionPage, analyticsPage, usagePage, waterfallPage, filesPage];

function usePreloadPages() {
  useEffect(() => {
    const preload = () => {
      for (const p of pages) void p.preload().catch(() => undefined);
    };
    const idle = window.requestIdleCallback?.(preload, { timeout: 2000 });
    const timer = idle === undefined ? setTimeout(preload, 1000) : undefined;
    return () => {
      if (idle !== undefined) window.cancelIdleCallback?.(idle);
      clearTimeout(timer);
    };
  }, []);
}

function useGlobalKeys(onHelp: () => void) {
  useEffect(() => {
    const on = (event: KeyboardEvent) => {
      if (singleKeyOff(event)) return;
      const mod = event.ctrlKey || event.metaKey;
      const search = (mod && event.key.toLowerCase() === 'k') || (!mod && !event.altKey && event.key === '/');
      if (search && (mod || !typingIn(event))) {
        event.preventDefault();
        if (!/^#\/?(\?.*)?$/.test(window.location.hash) && window.location.hash !== '') window.location.hash = '#/';
        // the sessions page may still be loading: its field takes the request when it mounts
        requestSearchFocus();
        return;
      }
      if (event.key === '?' && !mod && !typingIn(event)) {
        event.preventDefault();
        onHelp();
      }
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, [onHelp]);
}

/** The pages under the Sessions tab: the list and a session's own pages. */
const SESSION_PAGES: ReadonlySet<Route['page']> = new Set(['sessions', 'session', 'waterfall', 'files']);

export function App() {
  const route = useRoute();
  const [connected, setConnected] = useState(false);
  const [help, setHelp] = useState(false);
  // a new team filter (person, device) shows the page again from the server
  const [scopeKey, setScopeKey] = useState(0);
  useEffect(() => subscribeConnection(setConnected), []);
  useEffect(() => subscribeTeamScope(() => setScopeKey((k) => k + 1)), []);
  const indexStatus = useIndexStatus();
  useGlobalKeys(() => setHelp(true));
  usePageChange(route);
  usePreloadPages();
  return (
    <div className="app">
      <button type="button" className="skip-link" onClick={focusContent} data-testid="skip-link">
        Skip to content
      </button>
      <header className="topbar">
        <a className="brand" href="#/" aria-label="AgentDash">
          <span className="brand-mark" aria-hidden="true">
            <svg viewBox="0 0 32 32">
              <title>AgentDash</title>
              <path
                d="M6 22l5-12 4 8 3-5 4 9"
                fill="none"
                stroke="#0d0f14"
                strokeWidth="3"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </span>
          <span className="brand-name">AgentDash</span>
        </a>
        <nav className="nav">
          <a
            href="#/"
            className={SESSION_PAGES.has(route.page) ? 'active' : ''}
            aria-current={SESSION_PAGES.has(route.page) ? 'page' : undefined}
          >
            Sessions
          </a>
          <a
            href="#/analytics"
            className={route.page === 'analytics' ? 'active' : ''}
            aria-current={route.page === 'analytics' ? 'page' : undefined}
          >
            Analytics
          </a>
          <a
            href="#/usage"
            className={route.page === 'usage' ? 'active' : ''}
            aria-current={route.page === 'usage' ? 'page' : undefined}
            data-testid="nav-usage"
          >
            Usage
          </a>
        </nav>
        <div className="topbar-right">
          <RedactNotice />
          <TeamScope />
          <button
            type="button"
            className="icon-btn"
            onClick={() => setHelp(true)}
            title="Keyboard shortcuts (?)"
            aria-label="Keyboard shortcuts"
            data-testid="shortcuts-button"
          >
            ?
          </button>
          <ThemeToggle />
          <span className="conn" data-testid="live-status" title="Live updates over server-sent events">
            <span className={`conn-dot ${connected ? 'on' : ''}`} />
            <span className="conn-label" aria-hidden="true">
              {connected ? 'Live' : 'Offline'}
            </span>
            <span className="sr-only">{connected ? 'Live' : 'Offline'}</span>
          </span>
        </div>
      </header>
      <IndexError status={indexStatus} />
      <main className="main" id="main" key={scopeKey}>
        <PageError resetKey={`${route.page} ${'id' in route ? route.id : ''} ${route.visit}`}>
          <Suspense fallback={<div className="page dim">Loading…</div>}>
            {route.page === 'sessions' && <SessionsPage key={route.visit} query={route.query} />}
            {route.page === 'session' && (
              <SessionPage key={route.id} id={route.id} call={route.call} find={route.find} />
            )}
            {route.page === 'analytics' && <AnalyticsPage key={route.visit} query={route.query} />}
            {route.page === 'usage' && <UsagePage key={route.visit} query={route.query} />}
            {route.page === 'waterfall' && <WaterfallPage key={route.id} id={route.id} />}
            {route.page === 'files' && <FilesPage key={route.id} id={route.id} />}
            {route.page === 'unknown' && <NotFoundPage address={route.address} session={route.session} />}
          </Suspense>
        </PageError>
      </main>
      {help && <ShortcutsHelp onClose={() => setHelp(false)} />}
    </div>
  );
}
