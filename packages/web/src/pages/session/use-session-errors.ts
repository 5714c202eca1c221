import { useEffect, useState } from 'react';
import { api } from '../../data/client';
import type { SessionErrorHit } from '../../data/types';

/**
 * Every errored call of the session (subagents included), reloaded when the session changes; `pending` while the
 * first list of a session with errors is on its way (the server reads a large transcript first), so that the bar does
 * not say "No errors" meanwhile.
 */
export function useSessionErrors(sessionId: string | undefined, errorCount: number, version: number) {
  const [errors, setErrors] = useState<readonly SessionErrorHit[]>([]);
  const [loadedFor, setLoadedFor] = useState<string | undefined>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: version reloads after live updates
  useEffect(() => {
    if (!sessionId || errorCount === 0) {
      setErrors([]);
      setLoadedFor(sessionId);
      return;
    }
    const ctl = new AbortController();
    api
      .errors(sessionId, ctl.signal)
      .then((r) => {
        setErrors(r.errors);
        setLoadedFor(sessionId);
      })
      .catch(() => undefined);
    return () => ctl.abort();
  }, [sessionId, errorCount, version]);
  return { errors, pending: sessionId !== undefined && errorCount > 0 && loadedFor !== sessionId };
}
