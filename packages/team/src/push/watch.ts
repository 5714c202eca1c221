/**
 * A push that keeps going: `push --watch` and `serve --push`. Each round runs when the local index changed since the
 * last good round (or at once after a failure's back-off); a failure is reported once until it changes, and the loop
 * carries on, so a team server that restarts or a laptop that goes offline catches up by itself. A failure that
 * cannot pass by itself (`stopsPushing`: the token refused) ends the loop instead, its promise rejected with it.
 */

import { messageOf } from '@agentdash/core/base';
import { PushError } from './client.js';
import type { PushReport } from './push.js';

/**
 * A failure no retry gets past: the team server refused the token (401 or 403: revoked, erased, unknown, or a
 * viewer's). A revoked token never works again (`team add-device` gives the device a new one), so a loop retrying it
 * would print one line and try for ever; a one-shot push exits 11 on it.
 */
export const stopsPushing = (error: unknown): boolean => error instanceof PushError && error.code === 'TEAM_REFUSED';

export interface PushLoopOptions {
  /** One push (refreshing the index first where the caller must). */
  readonly once: () => Promise<PushReport>;
  /** A stamp of the local index: a round is skipped while it is what the last good round saw. */
  readonly stamp: () => Promise<string> | string;
  readonly intervalMs: number;
  readonly signal: AbortSignal;
  readonly onReport: (report: PushReport) => void;
  readonly onError: (error: unknown) => void;
  /** Longest wait after failures (doubling from `intervalMs`). */
  readonly maxBackoffMs?: number;
  /** A failure that ends the loop (rejecting its promise with it) rather than being retried; `stopsPushing` unless given. */
  readonly stopOn?: (error: unknown) => boolean;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done) => {
    if (signal.aborted) return done();
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      done();
    }
    signal.addEventListener('abort', finish);
  });

export async function pushLoop(options: PushLoopOptions): Promise<void> {
  const { signal } = options;
  let seen: string | undefined;
  let failures = 0;
  let lastError: string | undefined;
  while (!signal.aborted) {
    try {
      const stamp = await options.stamp();
      if (stamp !== seen || failures > 0) {
        const report = await options.once();
        seen = await options.stamp();
        failures = 0;
        lastError = undefined;
        options.onReport(report);
      }
    } catch (error) {
      if ((options.stopOn ?? stopsPushing)(error)) throw error;
      failures += 1;
      const message = messageOf(error);
      if (message !== lastError) options.onError(error);
      lastError = message;
    }
    const wait =
      failures === 0
        ? options.intervalMs
        : Math.min(options.intervalMs * 2 ** Math.min(failures, 10), options.maxBackoffMs ?? 60_000);
    await sleep(wait, signal);
  }
}
