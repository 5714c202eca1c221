import { messageOf } from '@agentdash/core/present';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { ApiRequestError, api } from '../../data/client';
import type { EventDto, SessionDetail } from '../../data/types';
import { EventPages, PAGE } from './event-pages';

export { PAGE };

export interface LoadError {
  readonly status: number;
  readonly message: string;
  /** The sessions an ambiguous reference names (a 409), to offer each as a link. */
  readonly candidates?: readonly string[] | undefined;
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
        message: messageOf(e),
        candidates: e instanceof ApiRequestError ? e.candidates : undefined,
      });
      return undefined;
    }
  }, [id]);
  useEffect(() => {
    void loadDetail();
  }, [loadDetail]);
  return { detail, error, loadDetail };
}

/** Main-timeline events, a page at a time as rows need them (see `EventPages`: failed or lost requests are retried). */
export function useEventPages(id: string) {
  // The session's own id as its transcript names it (`id` may be `<id>@<folder>` or a stored key), once a page came.
  const [transcriptId, setTranscriptId] = useState<string | undefined>();
  const loader = useMemo(
    () =>
      new EventPages((offset, limit, signal) =>
        api.events(id, offset, limit, undefined, signal).then((r) => {
          setTranscriptId(r.sessionId);
          return r.events;
        }),
      ),
    [id],
  );
  useEffect(() => {
    loader.reopen();
    return () => loader.close();
  }, [loader]);
  const { pages, error: pageError } = useSyncExternalStore(loader.subscribe, () => loader.state);
  const pagesRef = useMemo(
    () => ({
      get current() {
        return loader.state.pages;
      },
    }),
    [loader],
  );
  const loadPage = useCallback((page: number, force = false) => loader.load(page, force), [loader]);
  // a new function whenever pages come, so that rows reading it render again
  const eventAt = useCallback(
    (index: number): EventDto | undefined => pages.get(Math.floor(index / PAGE))?.[index % PAGE],
    [pages],
  );
  // new with every page too: the rows' effect asks again for what a page cut short did not bring
  // biome-ignore lint/correctness/useExhaustiveDependencies: `pages` is the trigger, not an input
  const loadFor = useCallback((index: number) => loader.loadFor(index), [loader, pages]);
  return { pages, pagesRef, loadPage, loadFor, eventAt, pageError, transcriptId };
}
