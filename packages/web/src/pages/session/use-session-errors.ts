import { useEffect, useState } from 'react';
import { api } from '../../data/client';
import type { SessionErrorHit } from '../../data/types';

/** Every errored call of the session (subagents included), reloaded when the session changes. */
export function useSessionErrors(sessionId: string | undefined, errorCount: number, version: number) {
  const [errors, setErrors] = useState<readonly SessionErrorHit[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version reloads after live updates
  useEffect(() => {
    if (!sessionId || errorCount === 0) {
      setErrors([]);
      return;
    }
    const ctl = new AbortController();
    api
      .errors(sessionId, ctl.signal)
      .then((r) => setErrors(r.errors))
      .catch(() => undefined);
    return () => ctl.abort();
  }, [sessionId, errorCount, version]);
  return errors;
}
