import { useEffect, useState } from 'react';
import { subscribeLive } from './client';
import { throttledTicks } from './live-ticks';
import type { LiveMessage } from './types';

/** How often a page reloads at most while sessions change: the analytics pages scan every call. */
export const ANALYTICS_RELOAD_MS = 5_000;
export const LIST_RELOAD_MS = 1_000;

/** A number that grows when `changed` says a live message matters, at most once per `minMs`. */
function useTick(changed: (m: LiveMessage) => boolean, minMs: number, scope: string): number {
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `scope` stands for what `changed` matches
  useEffect(
    () =>
      throttledTicks(
        (onChange) => subscribeLive((m) => changed(m) && onChange()),
        minMs,
        () => setTick((t) => t + 1),
      ),
    [minMs, scope],
  );
  return tick;
}

/** A number that grows when the sessions change (live), at most once per `minMs`: a page's reload dependency. */
export function useLiveTick(minMs: number): number {
  return useTick((m) => m.type === 'sessions-changed', minMs, '');
}

/** Whether a live message says the session `id` changed (the address's id may be a prefix of the session's). */
export function updatesSession(m: LiveMessage, id: string): boolean {
  return m.type === 'session-updated' && m.sessionId.startsWith(id);
}

/** A number that grows when the session `id` changes (live), at most once per `minMs` (0: on every change). */
export function useSessionTick(id: string, minMs: number): number {
  return useTick((m) => updatesSession(m, id), minMs, id);
}
