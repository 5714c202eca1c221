import { useEffect, useRef } from 'react';

/** What a `liveLoader` does with each answer, and with each failure of a load not given up. */
export interface LiveLoad<T> {
  readonly ask: (signal: AbortSignal) => Promise<T>;
  readonly take: (answer: T) => void;
  readonly fail: (error: unknown) => void;
}

/**
 * Loads of one question, one at a time: a `load` while one is on its way asks once more after it, never aborts it.
 * A large home's answer (a search, Usage, a session's waterfall) can take longer than a running agent takes to change
 * its sessions again: aborting on every change kept the page waiting for as long as the agent wrote, and the server
 * computed every aborted answer. `stop` gives up the load on its way (another question); nothing is taken after it.
 */
export function liveLoader<T>(calls: () => LiveLoad<T>): { load(): void; stop(): void } {
  const ctl = new AbortController();
  let busy = false;
  let again = false;
  const load = (): void => {
    if (ctl.signal.aborted) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    const { ask } = calls();
    ask(ctl.signal)
      .then(
        (answer) => !ctl.signal.aborted && calls().take(answer),
        (error: unknown) => !ctl.signal.aborted && calls().fail(error),
      )
      .finally(() => {
        busy = false;
        if (again) {
          again = false;
          load();
        }
      });
  };
  return { load, stop: () => ctl.abort() };
}

/**
 * The answers to the question `key` names (undefined: none asked yet), asked at once and again at each new `reload`
 * (a live tick), one load at a time (`liveLoader`). A new key gives up the load of the last one. `calls` are read
 * when used, so they may be new functions at each render.
 */
export function useLiveAnswer<T>(key: string | undefined, reload: number, calls: LiveLoad<T>): void {
  const latest = useRef(calls);
  latest.current = calls;
  const loader = useRef<{ load(): void } | undefined>(undefined);
  const seen = useRef(reload);
  const now = useRef(reload);
  now.current = reload;
  useEffect(() => {
    if (key === undefined) return;
    // this load is the reload's too when both changed at once
    seen.current = now.current;
    const l = liveLoader(() => latest.current);
    loader.current = l;
    l.load();
    return () => {
      l.stop();
      loader.current = undefined;
    };
  }, [key]);
  // a reload after the first (the effect above asks for that one)
  useEffect(() => {
    if (seen.current === reload) return;
    seen.current = reload;
    loader.current?.load();
  }, [reload]);
}
