/**
 * Files whose last bytes a refresh held back, unreported, because they were being written (core's `WRITE_SETTLE_MS`:
 * a record caught mid-write): an agent that stopped mid-record changes the file no more, so no watcher event would
 * ever read it again. Each is read again once it has settled, when its cut record is reported (or read, finished).
 * @module
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { WRITE_SETTLE_MS } from '@agentdash/core';

/** How long after a held file settles it is read again (a margin over the clocks' and the file system's rounding). */
const SETTLE_MARGIN_MS = 250;

/** When bytes written at `mtime` stop being "still written" as core's reader tells (`mayStillBeWritten`). */
function settlesAt(mtime: number, now: number): number {
  return Math.abs(now - mtime) >= WRITE_SETTLE_MS ? now : mtime + WRITE_SETTLE_MS;
}

/**
 * Follows the held files and asks for a refresh of each once it has settled. Once per modification time: a file
 * read again after it settled and still held at that time is not read again and again (the refresh that follows a
 * change of it takes it up again).
 */
export class HeldFiles {
  /** The files waiting to settle: the modification time each was held at. */
  private readonly waiting = new Map<string, number>();
  /** The files read again after they settled, at that modification time. */
  private readonly readAfter = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    /** The held files among `paths` (all of them when undefined): the index's `heldWhileWriting`. */
    private readonly heldOf: (paths: readonly string[] | undefined) => readonly string[],
    /** Refreshes these files (the live events' `refresh`). */
    private readonly refresh: (files: readonly string[]) => void,
  ) {}

  /** After a refresh of `changed` (empty: of everything): note the files it held, and those it no longer holds. */
  seen(changed: readonly string[]): void {
    if (this.closed) return;
    const held = this.heldOf(changed.length > 0 ? changed : undefined);
    const still = new Set(held);
    const looked =
      changed.length > 0 ? changed.map((f) => resolve(f)) : [...this.waiting.keys(), ...this.readAfter.keys()];
    for (const path of looked) {
      if (still.has(path)) continue;
      this.waiting.delete(path);
      this.readAfter.delete(path);
    }
    for (const path of held) {
      const mtime = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
      if (mtime === undefined || this.readAfter.get(path) === mtime) continue;
      this.waiting.set(path, mtime);
    }
    this.arm();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A timer for the first of the waiting files to settle, unless one is set. */
  private arm(): void {
    if (this.timer !== undefined || this.waiting.size === 0 || this.closed) return;
    const now = Date.now();
    const due = Math.min(...[...this.waiting.values()].map((mtime) => settlesAt(mtime, now)));
    this.timer = setTimeout(() => this.fire(), Math.max(0, due - now) + SETTLE_MARGIN_MS);
    this.timer.unref();
  }

  /** Refresh the files settled by now; the others wait on. */
  private fire(): void {
    this.timer = undefined;
    if (this.closed) return;
    const now = Date.now();
    const settled: string[] = [];
    for (const [path, mtime] of this.waiting) {
      if (settlesAt(mtime, now) > now) continue;
      settled.push(path);
      this.waiting.delete(path);
      this.readAfter.set(path, mtime);
    }
    if (settled.length > 0) this.refresh(settled);
    this.arm();
  }
}
