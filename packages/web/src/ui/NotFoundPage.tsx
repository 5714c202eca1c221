import { sessionHref, shortRef } from './router';

/**
 * What an address of no page shows (mistyped, cut when it was pasted, or made by another version of AgentDash): the
 * address as it was asked, and the pages there are. Never another page under that address.
 */
export function NotFoundPage({ address, session }: { readonly address: string; readonly session?: string }) {
  return (
    <div className="page not-found" data-testid="not-found">
      <h2>No page at this address</h2>
      <p className="dim">
        <code>{address}</code> is no page of this dashboard: mistyped, cut, or made by another version of AgentDash.
      </p>
      <p>
        Go to{' '}
        {session !== undefined && (
          <>
            the session <a href={sessionHref(session)}>{shortRef(session)}</a>,{' '}
          </>
        )}
        <a href="#/">Sessions</a>, <a href="#/analytics">Analytics</a> or <a href="#/usage">Usage</a>. A session&apos;s
        waterfall and files open from its page.
      </p>
    </div>
  );
}
