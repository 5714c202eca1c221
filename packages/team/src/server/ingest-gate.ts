/**
 * How many pushed bodies the team server stores at once. Every device of a team may push at the same moment (a
 * morning's first `push --watch`, twenty laptops after an outage); stored all at once, each request shares the
 * process and the connection pool with all the others and none ends in time. Through the gate, a few are stored at a
 * time, in the order they came; a request that waits too long is answered 503 with `Retry-After` before its body is
 * read, and the laptop sends it again later (every push request is idempotent).
 */
export interface IngestGateOptions {
  /** Requests stored at once (default 4). */
  readonly slots?: number | undefined;
  /** Longest wait for a slot before the 503 (default 20 s). */
  readonly maxWaitMs?: number | undefined;
  /** The `Retry-After` of that 503, in seconds (default 5). */
  readonly retryAfterSeconds?: number | undefined;
}

export interface IngestGate {
  /** A slot (call the returned function to give it back), or `undefined` once `maxWaitMs` passed without one. */
  enter(): Promise<(() => void) | undefined>;
  readonly retryAfterSeconds: number;
  /** Requests being stored and waiting now. */
  load(): { readonly active: number; readonly waiting: number };
}

interface Waiter {
  readonly resolve: (release: (() => void) | undefined) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export function createIngestGate(options: IngestGateOptions = {}): IngestGate {
  const slots = Math.max(1, Math.floor(options.slots ?? 4));
  const maxWaitMs = Math.max(0, options.maxWaitMs ?? 20_000);
  const retryAfterSeconds = Math.max(1, Math.round(options.retryAfterSeconds ?? 5));
  let active = 0;
  const queue: Waiter[] = [];

  const release = (): void => {
    active -= 1;
    const next = queue.shift();
    if (next === undefined) return;
    if (next.timer !== undefined) clearTimeout(next.timer);
    active += 1;
    next.resolve(once());
  };
  const once = (): (() => void) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  };

  return {
    retryAfterSeconds,
    load: () => ({ active, waiting: queue.length }),
    enter() {
      if (active < slots) {
        active += 1;
        return Promise.resolve(once());
      }
      return new Promise((resolve) => {
        const waiter: Waiter = { resolve, timer: undefined };
        waiter.timer = setTimeout(() => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          resolve(undefined);
        }, maxWaitMs);
        queue.push(waiter);
      });
    },
  };
}
