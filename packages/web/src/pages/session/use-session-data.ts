import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError, api } from '../../data/client';
import type { EventDto, SessionDetail } from '../../data/types';

/** Events per page request. */
export const PAGE = 100;

export interface LoadError {
  readonly status: number;
  readonly message: string;
}

/** The session's header (the server computes it from the index, without parsing the transcript). */
export function useSessionDetail(id: string) {
  const [detail, setDetail] = useState<SessionDetail | undefined>();
  const [error, setError] = useState<LoadError | undefined>();
  const loadDetail = useCallback(async () => {
    try {
      const d = await api.session(id);
      setDetail(d);
      setError(undefined);
      return d;
    } catch (e) {
      setError({
        status: e instanceof ApiRequestError ? e.status : 0,
        message: e instanceof Error ? e.message : String(e),
      });
      return undefined;
    }
  }, [id]);
  useEffect(() => {
    void loadDetail();
  }, [loadDetail]);
  return { detail, error, loadDetail };
}

/**
 * Main-timeline events, fetched a page at a time as rows need them. Page `p` holds events from `p * PAGE`; the server
 * may send fewer than asked (it cuts a page by size too: a few huge tool outputs are not one response of megabytes),
 * and the rest of the page is asked for when a row of it is shown (`loadFor`).
 */
export function useEventPages(id: string) {
  const [pages, setPages] = useState<ReadonlyMap<number, readonly EventDto[]>>(new Map());
  /** The last page request's failure (cleared by the next page that comes). */
  const [pageError, setPageError] = useState<string | undefined>();
  const inflight = useRef(new Set<number>());
  const pagesRef = useRef(pages);
  pagesRef.current = pages;
  /** Page `page` again from its start (`force`, live updates), or the part of it not loaded yet. */
  const loadPage = useCallback(
    async (page: number, force = false) => {
      if (inflight.current.has(page) && !force) return;
      const have = force ? [] : (pagesRef.current.get(page) ?? []);
      if (have.length >= PAGE) return;
      inflight.current.add(page);
      try {
        const r = await api.events(id, page * PAGE + have.length, PAGE - have.length);
        setPages((old) => {
          const kept = force ? [] : (old.get(page) ?? []);
          // a page reloaded meanwhile (live) holds newer events than the continuation was asked after
          if (kept.length !== have.length || (!force && r.events.length === 0)) return old;
          return new Map(old).set(page, [...kept, ...r.events]);
        });
        setPageError(undefined);
      } catch (e) {
        setPageError(e instanceof Error ? e.message : String(e));
      } finally {
        inflight.current.delete(page);
      }
    },
    [id],
  );
  const eventAt = useCallback(
    (index: number): EventDto | undefined => pages.get(Math.floor(index / PAGE))?.[index % PAGE],
    [pages],
  );
  /** Ask for the event at `index` unless it is here. */
  const loadFor = useCallback(
    (index: number) => {
      if (eventAt(index) === undefined) void loadPage(Math.floor(index / PAGE));
    },
    [eventAt, loadPage],
  );
  return { pages, pagesRef, loadPage, loadFor, eventAt, pageError };
}
