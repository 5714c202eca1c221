import { useEffect, useState } from 'react';
import { api, subscribeLive } from '../data/client';
import type { IndexStatus } from '../data/types';
import { indexProgressView } from './index-progress';

/** The first index build's status: from /api/health at once, then live over SSE. */
export function useIndexStatus(): IndexStatus | undefined {
  const [status, setStatus] = useState<IndexStatus | undefined>();
  useEffect(() => {
    const ctl = new AbortController();
    let live = false;
    const unsubscribe = subscribeLive((m) => {
      if (m.type !== 'index-progress') return;
      live = true;
      setStatus(m.index);
    });
    api
      .health(ctl.signal)
      .then((h) => {
        // an SSE message may already be newer than this answer
        if (!live) setStatus(h.index);
      })
      .catch(() => undefined);
    return () => {
      ctl.abort();
      unsubscribe();
    };
  }, []);
  return status;
}

/** A bar, a count and the time left while the first index build runs; nothing once it is over. */
export function IndexProgress({ status }: { status: IndexStatus | undefined }) {
  const [now, setNow] = useState(() => Date.now());
  const indexing = status?.state === 'indexing';
  useEffect(() => {
    if (!indexing) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [indexing]);
  if (!status || !indexing) return null;
  const view = indexProgressView(status, Math.max(now, Date.now()));
  return (
    // Only the heading is announced (it changes when a stage does): the count and the time left change every second,
    // and a live region around them was read out as often; the bar carries the value.
    <div className="index-progress" data-testid="index-progress">
      <div className="index-progress-text">
        <strong role="status">{view.heading}</strong>
        <span data-testid="index-progress-count">{view.count}</span>
        {view.bytes && <span>{view.bytes}</span>}
        {view.left && <span data-testid="index-progress-left">{view.left}</span>}
        <span className="dim">{view.meanwhile}</span>
      </div>
      <div
        className="index-progress-bar"
        role="progressbar"
        aria-label="Indexing progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(view.share * 100)}
      >
        <div className="index-progress-fill" style={{ width: `${(view.share * 100).toFixed(1)}%` }} />
      </div>
    </div>
  );
}

/**
 * Why the index could not be brought up to date (its first build, or the last live refresh: an index another version
 * of AgentDash rebuilt, a disk full), in a strip under the top bar on every page: what any page shows (the list,
 * Analytics, Usage, a session) is what the index held before. Nothing once a refresh works.
 */
export function IndexError({ status }: { status: IndexStatus | undefined }) {
  if (!status?.error) return null;
  return (
    <div className="index-error" role="alert" data-testid="index-error">
      <strong>The index is not up to date</strong>: {status.error.replace(/\.$/, '')}. What this page shows is what it
      held before.
    </div>
  );
}
