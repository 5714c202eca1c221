import { useEffect, useState } from 'react';
import { api } from '../../data/client';
import type { SessionErrorHit } from '../../data/types';

/**
 * Every errored call of the session (subagents included), reloaded when the session changes; `listing` is `loading`
 * while the first list of a session with errors is on its way (the server reads a large transcript first), and
 * `failed` when it could not be had, so that the bar never says "No errors" for a session that has some.
 */
export function useSessionErrors(sessionId: string | undefined, errorCount: number, version: number) {
  const [errors, setErrors] = useState<readonly SessionErrorHit[]>([]);
  const [settled, setSettled] = useState<{ readonly id: string | undefined; readonly failed: boolean }>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: version reloads after live updates
  useEffect(() => {
    if (!sessionId || errorCount === 0) {
      setErrors([]);
      setSettled({ id: sessionId, failed: false });
      return;
    }
    const ctl = new AbortController();
    api
      .errors(sessionId, ctl.signal)
      .then((r) => {
        setErrors(r.errors);
        setSettled({ id: sessionId, failed: false });
      })
      .catch(() => {
        if (ctl.signal.aborted) return;
        setSettled({ id: sessionId, failed: true });
      });
    return () => ctl.abort();
  }, [sessionId, errorCount, version]);
  const listing: 'loading' | 'failed' | 'listed' =
    sessionId !== undefined && errorCount > 0 && settled?.id !== sessionId
      ? 'loading'
      : settled?.failed === true && errorCount > 0
        ? 'failed'
        : 'listed';
  return { errors, listing };
}
