import { useEffect, useState } from 'react';
import { api } from '../../data/client';
import type { FindResponse } from '../../data/types';

/**
 * Find-in-session: the server's hits for `query` (debounced), and the query they answer (`for`: the last one
 * answered, until the query typed since is).
 */
export function useFind(
  sessionId: string | undefined,
  query: string,
  version: number,
): (FindResponse & { readonly for: string }) | undefined {
  const [result, setResult] = useState<(FindResponse & { readonly for: string }) | undefined>();
  const [debounced, setDebounced] = useState(query);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(query), 200);
    return () => clearTimeout(t);
  }, [query]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version reloads after live updates
  useEffect(() => {
    const q = debounced.trim();
    if (!sessionId || q.length === 0) {
      setResult(undefined);
      return;
    }
    const ctl = new AbortController();
    api
      .find(sessionId, q, ctl.signal)
      .then((r) => setResult({ ...r, for: q }))
      .catch(() => undefined);
    return () => ctl.abort();
  }, [sessionId, debounced, version]);
  return result;
}
