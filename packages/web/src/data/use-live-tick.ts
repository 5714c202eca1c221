import { useEffect, useState } from 'react';
import { subscribeLive } from './client';
import { throttledTicks } from './live-ticks';

/** How often a page reloads at most while sessions change: the analytics pages scan every call. */
export const ANALYTICS_RELOAD_MS = 5_000;
export const LIST_RELOAD_MS = 1_000;

/** A number that grows when the sessions change (live), at most once per `minMs`: a page's reload dependency. */
export function useLiveTick(minMs: number): number {
  const [tick, setTick] = useState(0);
  useEffect(
    () =>
      throttledTicks(
        (onChange) => subscribeLive((m) => m.type === 'sessions-changed' && onChange()),
        minMs,
        () => setTick((t) => t + 1),
      ),
    [minMs],
  );
  return tick;
}
