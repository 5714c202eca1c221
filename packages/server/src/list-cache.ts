/**
 * Counts and facets of the sessions list, kept until the index changes: over 50,000 sessions each costs a scan, and
 * they do not change between two pages of the same list. Entries also expire after a few seconds (live flags follow
 * the clock, and another process may write the index).
 */
export class ListCache {
  private readonly entries = new Map<string, { readonly at: number; readonly value: unknown }>();

  constructor(
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
    /** While true (the first index build), nothing is kept: the list changes with every file. */
    private readonly bypass: () => boolean = () => false,
  ) {}

  get<T>(key: string, compute: () => T): T {
    if (this.bypass()) return compute();
    const hit = this.entries.get(key);
    const t = this.now();
    if (hit && t - hit.at < this.ttlMs) return hit.value as T;
    const value = compute();
    this.entries.set(key, { at: t, value });
    // a failed computation is not kept
    if (value instanceof Promise) value.catch(() => this.entries.delete(key));
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
