import { messageOf } from '@agentdash/core/present';
import { useRef, useState } from 'react';
import { useLiveAnswer } from './use-live-answer';
import { LIST_RELOAD_MS, useSessionTick } from './use-live-tick';

/**
 * One answer about the session `id` (its waterfall, its files), asked again while the session changes live, at most
 * once a second, one load at a time (`useLiveAnswer`). A reload that fails (the server restarting) keeps what is
 * shown; `error` is set only when nothing could be shown. `onLoaded` sees the answer shown before (undefined for the
 * first) and the new one, as it is taken.
 */
export function useSessionAnswer<T>(
  id: string,
  ask: (id: string, signal: AbortSignal) => Promise<T>,
  onLoaded?: (before: T | undefined, after: T) => void,
): { readonly data: T | undefined; readonly error: string | undefined } {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<string | undefined>();
  const loaded = useRef<{ readonly id: string; readonly data: T } | undefined>(undefined);
  const tick = useSessionTick(id, LIST_RELOAD_MS);
  useLiveAnswer(id, tick, {
    ask: (signal) => ask(id, signal),
    take: (answer) => {
      const before = loaded.current?.id === id ? loaded.current.data : undefined;
      loaded.current = { id, data: answer };
      setData(answer);
      setError(undefined);
      onLoaded?.(before, answer);
    },
    fail: (e) => loaded.current?.id !== id && setError(messageOf(e)),
  });
  return { data, error };
}
