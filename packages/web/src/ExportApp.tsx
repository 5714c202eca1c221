import type { StaticSessionData } from './data/static-source';
import { FilesPage } from './pages/FilesPage';
import { SessionPage } from './pages/SessionPage';
import { fmtDate } from './ui/format';
import { useRoute } from './ui/router';

/** The shell of an HTML export: one session, a note of when it was exported and what was redacted. */
export function ExportApp({ data }: { readonly data: StaticSessionData }) {
  const route = useRoute();
  const call = route.page === 'session' && route.id === data.sessionId ? route.call : undefined;
  const r = data.redaction;
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">AgentDash</span>
        <span className="dim" data-testid="export-note">
          Exported {fmtDate(data.exportedAt)} ·{' '}
          {r.redacted
            ? r.total > 0
              ? `${r.secrets} secret${r.secrets === 1 ? '' : 's'} redacted`
              : 'no secrets found'
            : 'not redacted'}
        </span>
      </header>
      <main className="main" id="main">
        {route.page === 'files' && route.id === data.sessionId ? (
          <FilesPage id={data.sessionId} />
        ) : (
          <SessionPage id={data.sessionId} call={call} />
        )}
      </main>
    </div>
  );
}
