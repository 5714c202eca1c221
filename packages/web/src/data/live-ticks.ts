/**
 * Live changes as reload ticks, at most one per `minMs`: the first change after a quiet spell ticks at once, and the
 * changes that come sooner tick once when the spell is over. A page whose answer costs the server a scan of every
 * call (Analytics, Usage: about a second over a 1 GiB home) would otherwise ask again on every append of a running
 * agent, and answers it had stopped waiting for would pile up in the server's query thread.
 */
export interface Timers {
  readonly now: () => number;
  readonly setTimeout: (run: () => void, ms: number) => unknown;
  readonly clearTimeout: (handle: unknown) => void;
}

const realTimers: Timers = {
  // A monotonic clock: a wall clock set back would hold the next reload for as long.
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Calls `onTick` for the changes `subscribe` reports, at most once per `minMs`; returns the unsubscribe. */
export function throttledTicks(
  subscribe: (onChange: () => void) => () => void,
  minMs: number,
  onTick: () => void,
  timers: Timers = realTimers,
): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let pending: unknown;
  const tick = () => {
    pending = undefined;
    last = timers.now();
    onTick();
  };
  const unsubscribe = subscribe(() => {
    if (pending !== undefined) return;
    const wait = last + minMs - timers.now();
    if (wait <= 0) tick();
    else pending = timers.setTimeout(tick, wait);
  });
  return () => {
    unsubscribe();
    if (pending !== undefined) timers.clearTimeout(pending);
    pending = undefined;
  };
}
