import { useEffect, useState } from 'react';
import { subscribeConnection } from './data/client';
import { AnalyticsPage } from './pages/AnalyticsPage';
import { SessionPage } from './pages/SessionPage';
import { SessionsPage } from './pages/SessionsPage';
import { UsagePage } from './pages/UsagePage';
import { WaterfallPage } from './pages/WaterfallPage';
import { useRoute } from './ui/router';

export function App() {
  const route = useRoute();
  const [connected, setConnected] = useState(false);
  useEffect(() => subscribeConnection(setConnected), []);
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="#/">
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
          AgentDash
        </a>
        <nav className="nav">
          <a href="#/" className={route.page !== 'analytics' && route.page !== 'usage' ? 'active' : ''}>
            Sessions
          </a>
          <a href="#/analytics" className={route.page === 'analytics' ? 'active' : ''}>
            Analytics
          </a>
          <a href="#/usage" className={route.page === 'usage' ? 'active' : ''} data-testid="nav-usage">
            Usage
          </a>
        </nav>
        <div className="topbar-right">
          <span className="conn" data-testid="live-status" title="Live updates over server-sent events">
            <span className={`conn-dot ${connected ? 'on' : ''}`} />
            {connected ? 'Live' : 'Offline'}
          </span>
        </div>
      </header>
      <main className="main" id="main">
        {route.page === 'sessions' && <SessionsPage />}
        {route.page === 'session' && <SessionPage key={route.id} id={route.id} call={route.call} />}
        {route.page === 'analytics' && <AnalyticsPage />}
        {route.page === 'usage' && <UsagePage />}
        {route.page === 'waterfall' && <WaterfallPage key={route.id} id={route.id} />}
      </main>
    </div>
  );
}
