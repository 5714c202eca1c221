import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventDto } from '../../data/types';
import { EventPages, type FetchEvents, isRetryable, PAGE } from './event-pages';

const event = (i: number) => ({ kind: 'note', index: i }) as unknown as EventDto;
const range = (offset: number, n: number) => Array.from({ length: n }, (_, k) => event(offset + k));

class HttpFailure extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** A server whose answers the test releases one by one. */
function scriptedServer(total: number) {
  const asked: { offset: number; limit: number; signal: AbortSignal; settle: (fail?: Error) => void }[] = [];
  const fetch: FetchEvents = (offset, limit, signal) =>
    new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason));
      asked.push({
        offset,
        limit,
        signal,
        settle: (fail) => (fail ? reject(fail) : resolve(range(offset, Math.max(0, Math.min(limit, total - offset))))),
      });
    });
  return { asked, fetch };
}

describe('EventPages: a timeline row never stays a placeholder because one request failed or was lost', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks again after a busy server (503) and fills the page when the retry answers', async () => {
    const server = scriptedServer(250);
    const pages = new EventPages(server.fetch, { retryMs: [100] });
    pages.loadFor(120);
    expect(server.asked.map((a) => [a.offset, a.limit])).toEqual([[PAGE, PAGE]]);
    server.asked[0]!.settle(new HttpFailure(503));
    await vi.advanceTimersByTimeAsync(0);
    expect(pages.state.error).toBe('HTTP 503');
    expect(pages.eventAt(120)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(100);
    expect(server.asked).toHaveLength(2);
    server.asked[1]!.settle();
    await vi.advanceTimersByTimeAsync(0);
    expect(pages.eventAt(120)).toEqual(event(120));
    expect(pages.state.error).toBeUndefined();
  });

  it('gives up on a request that gets no answer and asks again', async () => {
    const server = scriptedServer(50);
    const pages = new EventPages(server.fetch, { timeoutMs: 1000, retryMs: [100] });
    pages.loadFor(3);
    await vi.advanceTimersByTimeAsync(999);
    expect(server.asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.asked[0]!.signal.aborted).toBe(true);
    expect(pages.state.error).toMatch(/no answer/);
    await vi.advanceTimersByTimeAsync(100);
    expect(server.asked).toHaveLength(2);
    server.asked[1]!.settle();
    await vi.advanceTimersByTimeAsync(0);
    expect(pages.state.pages.get(0)).toHaveLength(50);
  });

  it('waits longer after each failure, and does not ask again for a session that is not there (404)', async () => {
    const server = scriptedServer(10);
    const pages = new EventPages(server.fetch, { retryMs: [100, 400] });
    pages.loadFor(0);
    server.asked[0]!.settle(new HttpFailure(500));
    await vi.advanceTimersByTimeAsync(100);
    server.asked[1]!.settle(new HttpFailure(500));
    await vi.advanceTimersByTimeAsync(399);
    expect(server.asked).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.asked).toHaveLength(3);
    server.asked[2]!.settle(new HttpFailure(404));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.asked).toHaveLength(3);
    expect(pages.state.error).toBe('HTTP 404');
  });

  it('ignores the answer of a request a live reload superseded, and stops after close', async () => {
    const server = scriptedServer(30);
    const pages = new EventPages(server.fetch);
    pages.loadFor(0);
    void pages.load(0, true);
    expect(server.asked[0]!.signal.aborted).toBe(true);
    server.asked[1]!.settle();
    await vi.advanceTimersByTimeAsync(0);
    expect(pages.state.pages.get(0)).toHaveLength(30);
    pages.close();
    void pages.load(1);
    expect(server.asked).toHaveLength(2);
  });

  it('asks for the rest of a page the server cut short', async () => {
    const asked: [number, number][] = [];
    const pages = new EventPages(async (offset, limit) => {
      asked.push([offset, limit]);
      return range(offset, Math.min(limit, 40));
    });
    await pages.load(0);
    expect(pages.eventAt(39)).toEqual(event(39));
    pages.loadFor(39);
    pages.loadFor(40);
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual([
      [0, PAGE],
      [40, PAGE - 40],
    ]);
    expect(pages.eventAt(79)).toEqual(event(79));
  });

  it('asks again, a few times, when the server sends no events where the header counted some', async () => {
    let answers = 0;
    const pages = new EventPages(
      async (offset, limit) => {
        answers++;
        return answers < 3 ? [] : range(offset, limit);
      },
      { retryMs: [100] },
    );
    pages.loadFor(5);
    await vi.advanceTimersByTimeAsync(0);
    expect(pages.eventAt(5)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(answers).toBe(3);
    expect(pages.eventAt(5)).toEqual(event(5));
    let asked = 0;
    const counting = new EventPages(
      async () => {
        asked++;
        return [];
      },
      { retryMs: [100] },
    );
    counting.loadFor(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asked).toBe(7);
  });

  it('counts network errors and server errors as passing, client errors as final', () => {
    expect(isRetryable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isRetryable(new HttpFailure(503))).toBe(true);
    expect(isRetryable(new HttpFailure(0))).toBe(true);
    expect(isRetryable(new HttpFailure(400))).toBe(false);
    expect(isRetryable(new HttpFailure(409))).toBe(false);
  });
});
