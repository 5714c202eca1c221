/**
 * Answers kept until the index changes (the sessions list and its counts and facets, search, statistics, usage, the
 * sessions that references name):
 * over 50,000 sessions each costs a scan, and many tabs ask the same. An entry is stale once the index's data
 * version moved (a refresh here or a commit of another process) and after a few seconds (live flags follow the
 * clock).
 */
export class ListCache {
  private readonly entries = new Map<
    string,
    { readonly at: number; readonly stamp: string; readonly value: unknown; readonly keepUntil: number; stale: boolean }
  >();
  /** Called when an answer kept past a change (`keepMs`) is given out, with when it is dropped. */
  onKeptServed: ((until: number) => void) | undefined;

  constructor(
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
    /** While true (the first index build), nothing is kept: the list changes with every file. */
    private readonly bypass: () => boolean = () => false,
    /** Changes when the index does (`AgentIndex.dataVersion`): an entry stored under another stamp is stale. */
    private readonly stamp: () => string = () => '',
    /** Entries kept at most (one per list URL and per looked-up session); the oldest goes first. */
    private readonly maxEntries = 2000,
  ) {}

  /**
   * The kept answer of `key`, else `compute()`'s (kept). `keepMs`: keep this answer that long even when the index
   * changes meanwhile (a search over every transcript costs hundreds of milliseconds, and a session appended to twice
   * a second would have it computed again for every change); `onKeptServed` is told when such an answer is given
   * out after a change, so the caller can say the list changed again once it is dropped.
   */
  get<T>(key: string, compute: () => T, keepMs = 0): T {
    if (this.bypass()) return compute();
    const hit = this.entries.get(key);
    const t = this.now();
    const stamp = this.stamp();
    if (hit && !hit.stale && hit.stamp === stamp && t - hit.at < this.ttlMs) return hit.value as T;
    if (hit && t < hit.keepUntil) {
      this.onKeptServed?.(hit.keepUntil);
      return hit.value as T;
    }
    const value = compute();
    this.entries.delete(key);
    const entry = { at: t, stamp, value, keepUntil: t + keepMs, stale: false };
    this.entries.set(key, entry);
    // kept from when the answer is there: a search that took longer than `keepMs` under load was never kept
    if (keepMs > 0 && value instanceof Promise) {
      value.then(
        () => {
          entry.keepUntil = this.now() + keepMs;
        },
        () => undefined,
      );
    }
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    // a failed computation is not kept
    if (value instanceof Promise) value.catch(() => this.entries.delete(key));
    return value;
  }

  /** Drop every answer, except those kept on purpose (`keepMs`), which are only marked stale. */
  clear(): void {
    const t = this.now();
    for (const [key, entry] of this.entries) {
      if (t < entry.keepUntil) entry.stale = true;
      else this.entries.delete(key);
    }
  }
}
