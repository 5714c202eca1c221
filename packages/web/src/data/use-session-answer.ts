import { messageOf } from '@agentdash/core/present';
import { useEffect, useRef, useState } from 'react';
import { LIST_RELOAD_MS, useSessionTick } from './use-live-tick';

/**
 * One answer about the session `id` (its waterfall, its files), asked again while the session changes live, at most
 * once a second. One load at a time: a live change while one is on its way asks for one more after it, never aborts
 * it (a large session's answer can take longer than the session takes to change: aborting on every change kept it
 * loading for as long as the agent wrote, and the server computed every aborted answer). A reload that fails (the
 * server restarting) keeps what is shown; `error` is set only when nothing could be shown. `onLoaded` sees the
 * answer shown before (undefined for the first) and the new one, as it is taken.
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
  const reload = useRef<() => void>(() => undefined);
  const calls = useRef({ ask, onLoaded });
  calls.current = { ask, onLoaded };
  useEffect(() => {
    const ctl = new AbortController();
    let busy = false;
    let again = false;
    const load = () => {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      calls.current
        .ask(id, ctl.signal)
        .then((answer) => {
          const before = loaded.current?.id === id ? loaded.current.data : undefined;
          loaded.current = { id, data: answer };
          setData(answer);
          setError(undefined);
          calls.current.onLoaded?.(before, answer);
        })
        .catch((e: unknown) => !ctl.signal.aborted && loaded.current?.id !== id && setError(messageOf(e)))
        .finally(() => {
          busy = false;
          if (again && !ctl.signal.aborted) {
            again = false;
            load();
          }
        });
    };
    reload.current = load;
    load();
    return () => ctl.abort();
  }, [id]);
  // a live change of the session (not the first value: the load above asks for it)
  const seenTick = useRef(tick);
  useEffect(() => {
    if (seenTick.current === tick) return;
    seenTick.current = tick;
    reload.current();
  }, [tick]);
  return { data, error };
}
