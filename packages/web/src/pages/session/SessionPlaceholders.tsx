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

/** The timeline of a session with no events. */
export function TimelineEmpty() {
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
