import { staticSource } from '../../data/client';
import { sessionHref } from '../../ui/router';
import type { LoadError } from './use-session-data';

/** The page when the session cannot be shown: not found, or the server's error (a way back, but not in an export). */
export function SessionLoadError({ error }: { readonly error: LoadError }) {
  const heading = error.status === 404 ? 'Session not found' : 'Could not load this session';
  return (
    <div className="page">
      <div className="empty" data-testid="session-error">
        <h2 style={{ color: 'var(--text)' }}>{heading}</h2>
        {/* the server's words, unless they only repeat the heading ("session not found") */}
        {error.message.trim().toLowerCase() !== heading.toLowerCase() && <p>{error.message}</p>}
        {error.candidates !== undefined && error.candidates.length > 0 && (
          <ul className="session-candidates" data-testid="session-candidates">
            {error.candidates.map((ref) => (
              <li key={ref}>
                <a href={sessionHref(ref)} className="mono">
                  {ref}
                </a>
              </li>
            ))}
          </ul>
        )}
        {staticSource() === undefined && <a href="#/">← All sessions</a>}
      </div>
    </div>
  );
}

/**
 * The timeline of a session with no events: none yet, or (Claude Code 2.0.x) only the requests the client sent to warm
 * a subagent's prompt cache, which the header counts (their tokens and cost) and the timeline does not show.
 */
export function TimelineEmpty({ warmups = 0 }: { readonly warmups?: number | undefined }) {
  if (warmups > 0) {
    return (
      <div className="empty" data-testid="timeline-warmups">
        This session holds no conversation, only {warmups === 1 ? 'a warm-up request' : `${warmups} warm-up requests`}:
        Claude Code warming a subagent&apos;s prompt cache before it ran. Their tokens and cost are in the header.
      </div>
    );
  }
  return <div className="empty">This session has no messages yet.</div>;
}

/** "↓ Latest": back to the end of the timeline, shown once the reader has scrolled away from it. */
export function JumpLatest({ onClick }: { readonly onClick: () => void }) {
  return (
    <button type="button" className="btn primary jump-latest" onClick={onClick}>
      ↓ Latest
    </button>
  );
}
