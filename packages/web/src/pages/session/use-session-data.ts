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

/** Main-timeline events, fetched a page at a time as rows need them. */
export function useEventPages(id: string) {
  const [pages, setPages] = useState<ReadonlyMap<number, readonly EventDto[]>>(new Map());
  /** The last page request's failure (cleared by the next page that comes). */
  const [pageError, setPageError] = useState<string | undefined>();
  const inflight = useRef(new Set<number>());
  const pagesRef = useRef(pages);
  pagesRef.current = pages;
  const loadPage = useCallback(
    async (page: number, force = false) => {
      if (inflight.current.has(page) && !force) return;
      inflight.current.add(page);
      try {
        const r = await api.events(id, page * PAGE, PAGE);
        setPages((old) => new Map(old).set(page, r.events));
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
  return { pages, pagesRef, loadPage, eventAt, pageError };
}
