/**
 * Live changes as reload ticks, at most one per `minMs`: the first change after a quiet spell ticks at once, and the
 * changes that come sooner tick once when the spell is over. A page whose answer costs the server a scan of every
 * call (Analytics, Usage: slow over a large home) would otherwise ask again on every append of a running
 * agent, and answers it had stopped waiting for would pile up in the server's query thread.
 */

/** Calls `onTick` for the changes `subscribe` reports, at most once per `minMs`; returns the unsubscribe. */
export function throttledTicks(
  subscribe: (onChange: () => void) => () => void,
  minMs: number,
  onTick: () => void,
): () => void {
  // On a monotonic clock: a wall clock set back would hold the next reload for as long.
  let last = Number.NEGATIVE_INFINITY;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    pending = undefined;
    last = performance.now();
    onTick();
  };
  const unsubscribe = subscribe(() => {
    if (pending !== undefined) return;
    const wait = last + minMs - performance.now();
    if (wait <= 0) tick();
    else pending = setTimeout(tick, wait);
  });
  return () => {
    unsubscribe();
    if (pending !== undefined) clearTimeout(pending);
    pending = undefined;
  };
}
