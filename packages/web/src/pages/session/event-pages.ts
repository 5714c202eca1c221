import { messageOf } from '@agentdash/core/present';
import type { EventDto } from '../../data/types';

/** Events per page request. */
export const PAGE = 100;

/** Asks the server for `limit` main-timeline events from `offset`. */
export type FetchEvents = (offset: number, limit: number, signal: AbortSignal) => Promise<readonly EventDto[]>;

export interface EventPagesOptions {
  /** A request not answered by then is given up and asked again (a lost request would leave rows empty forever). */
  readonly timeoutMs?: number;
  /** The waits before each retry of a failed page; the last one repeats. */
  readonly retryMs?: readonly number[];
  /** Whether a failure may pass if asked again (a busy or restarting server) or is final (no such session). */
  readonly retryable?: (error: unknown) => boolean;
}

export interface EventPagesState {
  readonly pages: ReadonlyMap<number, readonly EventDto[]>;
  /** The last failure, cleared by the next page that comes. */
  readonly error: string | undefined;
}

/** How many times an empty answer for a page the header counts is asked again. */
const EMPTY_RETRIES = 6;

class RequestTimeout extends Error {
  constructor(ms: number) {
    super(`no answer in ${Math.round(ms / 1000)} s`);
  }
}

/** Failures worth asking again: no answer, a network error, or a server error (a busy index answers 503). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof RequestTimeout || error instanceof TypeError) return true;
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && (status === 0 || status === 408 || status === 429 || status >= 500);
}

/**
 * A session's main-timeline events, a page at a time. Page `p` holds events from `p * PAGE`; the server may send
 * fewer than asked (it cuts a page by size too), and the rest is asked for when a row of it is shown. A page request
 * that fails for a passing reason, or gets no answer, is asked again with a growing wait until it comes: rows a
 * reader is looking at never stay placeholders because one request was lost. A newer request for a page (a live
 * reload) supersedes the one in flight, whose answer is then ignored.
 */
export class EventPages {
  #state: EventPagesState = { pages: new Map(), error: undefined };
  readonly #inflight = new Map<number, AbortController>();
  readonly #retries = new Map<number, { readonly timer: ReturnType<typeof setTimeout>; readonly force: boolean }>();
  readonly #failures = new Map<number, number>();
  readonly #listeners = new Set<() => void>();
  #open = true;
  readonly #timeoutMs: number;
  readonly #retryMs: readonly number[];
  readonly #retryable: (error: unknown) => boolean;

  constructor(
    private readonly fetchEvents: FetchEvents,
    options: EventPagesOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? 20_000;
    this.#retryMs = options.retryMs?.length ? options.retryMs : [250, 500, 1000, 2000, 4000];
    this.#retryable = options.retryable ?? isRetryable;
  }

  get state(): EventPagesState {
    return this.#state;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The event at `index` of the main timeline, if its page has come. */
  eventAt(index: number): EventDto | undefined {
    return this.#state.pages.get(Math.floor(index / PAGE))?.[index % PAGE];
  }

  /** Page `page` again from its start (`force`: live updates), or the part of it not loaded yet. */
  async load(page: number, force = false): Promise<void> {
    if (!this.#open || (this.#inflight.has(page) && !force)) return;
    const have = force ? [] : (this.#state.pages.get(page) ?? []);
    if (have.length >= PAGE) return;
    this.#cancelRetry(page);
    this.#inflight.get(page)?.abort();
    const controller = new AbortController();
    this.#inflight.set(page, controller);
    const timer = setTimeout(() => controller.abort(new RequestTimeout(this.#timeoutMs)), this.#timeoutMs);
    const current = () => this.#open && this.#inflight.get(page) === controller;
    try {
      const events = await this.fetchEvents(page * PAGE + have.length, PAGE - have.length, controller.signal);
      if (!current()) return;
      const n = this.#failures.get(page) ?? 0;
      const kept = force ? [] : (this.#state.pages.get(page) ?? []);
      // a page reloaded meanwhile (live) holds newer events than the continuation was asked after
      const grows = kept.length === have.length && (force || events.length > 0);
      const pages = grows ? new Map(this.#state.pages).set(page, [...kept, ...events]) : this.#state.pages;
      if (grows || this.#state.error !== undefined) this.#set({ pages, error: undefined });
      // No events where the header counted some: the server's view of the file is behind its index (a file being
      // read again); ask again a few times rather than leave the rows empty until the reader scrolls.
      if (events.length === 0 && !force && n < EMPTY_RETRIES) this.#scheduleRetry(page, false, n + 1);
      else this.#failures.delete(page);
    } catch (e) {
      if (!current()) return;
      const error = controller.signal.aborted ? controller.signal.reason : e;
      this.#set({ ...this.#state, error: messageOf(error) });
      if (this.#retryable(error)) this.#scheduleRetry(page, force);
    } finally {
      clearTimeout(timer);
      if (this.#inflight.get(page) === controller) this.#inflight.delete(page);
    }
  }

  /** Ask for the event at `index` unless it is here (or already asked for). */
  loadFor(index: number): void {
    if (this.eventAt(index) === undefined) void this.load(Math.floor(index / PAGE));
  }

  /** Stop: abort what is in flight, cancel retries, ignore late answers. */
  close(): void {
    this.#open = false;
    for (const c of this.#inflight.values()) c.abort();
    this.#inflight.clear();
    for (const page of [...this.#retries.keys()]) this.#cancelRetry(page);
  }

  /** Start again after `close` (React's strict mode closes and reopens a component's effects once). */
  reopen(): void {
    this.#open = true;
  }

  #scheduleRetry(page: number, force: boolean, n = (this.#failures.get(page) ?? 0) + 1): void {
    this.#failures.set(page, n);
    const wait = this.#retryMs[Math.min(n, this.#retryMs.length) - 1] ?? 1000;
    const timer = setTimeout(() => {
      this.#retries.delete(page);
      void this.load(page, force);
    }, wait);
    this.#retries.set(page, { timer, force });
  }

  #cancelRetry(page: number): void {
    const retry = this.#retries.get(page);
    if (retry) clearTimeout(retry.timer);
    this.#retries.delete(page);
  }

  #set(state: EventPagesState): void {
    this.#state = state;
    for (const l of this.#listeners) l();
  }
}
