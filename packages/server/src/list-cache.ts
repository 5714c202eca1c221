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
    { readonly at: number; readonly stamp: string; readonly value: unknown }
  >();

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

  get<T>(key: string, compute: () => T): T {
    if (this.bypass()) return compute();
    const hit = this.entries.get(key);
    const t = this.now();
    const stamp = this.stamp();
    if (hit && hit.stamp === stamp && t - hit.at < this.ttlMs) return hit.value as T;
    const value = compute();
    this.entries.delete(key);
    this.entries.set(key, { at: t, stamp, value });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    // a failed computation is not kept
    if (value instanceof Promise) value.catch(() => this.entries.delete(key));
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
