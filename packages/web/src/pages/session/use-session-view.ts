import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { subscribeLive } from '../../data/client';
import type { KeptOpen, TimelineContext } from '../../timeline/context';
import { SubagentTimeline } from '../../timeline/SubagentTimeline';
import { holdsTranscript } from '../../ui/TeamBadge';
import type { Located } from './use-jump';
import { PAGE, useEventPages, useSessionDetail } from './use-session-data';

/** A session's data: its header, its main-timeline pages, and a version bumped by each live update. */
export function useSessionView(id: string) {
  const { detail, error, loadDetail } = useSessionDetail(id);
  const { pages, pagesRef, loadPage, loadFor, eventAt, pageError, transcriptId } = useEventPages(id);
  const [liveVersion, setLiveVersion] = useState(0);
  return {
    id,
    /** The full id once the header is known (the route may hold a prefix). */
    sessionId: detail?.session.id ?? id,
    /** The session's id as its agent knows it (what resuming it takes), once a page of its events came. */
    transcriptId,
    detail,
    error,
    loadDetail,
    /** Whether the server holds the transcript (a team session below the full tier does not: no pages to ask). */
    held: holdsTranscript(detail?.session),
    total: holdsTranscript(detail?.session) ? (detail?.totalEvents ?? 0) : 0,
    pages,
    pageError,
    pagesRef,
    loadPage,
    loadFor,
    eventAt,
    liveVersion,
    setLiveVersion,
  };
}

export type SessionView = ReturnType<typeof useSessionView>;

/** The timeline's scroller: whether the reader is at the end (live updates then follow it), and "↓ Latest". */
/** How far into the timeline the header folds (`useTimelineScroll`), and how much longer than its box it must be. */
const FOLD_AFTER_PX = 80;
const FOLD_SPARE_PX = 480;

export function useTimelineScroll() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(false);
  const [showJump, setShowJump] = useState(false);
  const [scrolled, setScrolled] = useState(false);
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    setShowJump(!atBottom.current && el.scrollHeight > el.clientHeight * 2);
    // Read into (the header folds on a phone): past the first lines, in a timeline long enough that the room the
    // header gives back cannot bring it to its top again; unfolded back at the top.
    setScrolled((was) =>
      was ? el.scrollTop > 4 : el.scrollTop > FOLD_AFTER_PX && el.scrollHeight - el.clientHeight > FOLD_SPARE_PX,
    );
  }, []);
  return { scrollRef, atBottom, showJump, scrolled, onScroll };
}

/** Live: reload the header and every loaded page; keep the reader's scroll position (or follow the end). */
export function useLiveSession(
  view: SessionView,
  atBottom: { readonly current: boolean },
  virtualizer: Virtualizer<HTMLDivElement, Element>,
) {
  const { id, sessionId, loadDetail, loadPage, pagesRef, setLiveVersion } = view;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the virtualizer, refs and setter are stable for the page's life
  useEffect(
    () =>
      subscribeLive((m) => {
        if (m.type !== 'session-updated' || (m.sessionId !== sessionId && !m.sessionId.startsWith(id))) return;
        const follow = atBottom.current;
        void loadDetail().then(async (d) => {
          if (!d) return;
          const loaded = [...pagesRef.current.keys()];
          const last = Math.max(0, Math.ceil(d.totalEvents / PAGE) - 1);
          const wanted = new Set([...loaded, ...(follow ? [last] : [])]);
          await Promise.all([...wanted].map((p) => loadPage(p, true)));
          setLiveVersion((v) => v + 1);
          if (follow) requestAnimationFrame(() => virtualizer.scrollToIndex(d.totalEvents - 1, { align: 'end' }));
        });
      }),
    [sessionId, id, loadDetail, loadPage],
  );
}

/** What every block of the timeline reads: the session, the deep-linked call, expand/collapse all, live version. */
export function useTimelineContext(
  view: SessionView,
  located: Located,
  openAll: TimelineContext['openAll'],
  measured?: TimelineContext['measured'],
): TimelineContext {
  const { sessionId, liveVersion } = view;
  const shells = view.detail?.shells;
  const copiedFrom = view.detail?.copiedFrom;
  const copied = useMemo(
    () => new Map((copiedFrom ?? []).flatMap((from) => from.callIds.map((id) => [id, from] as const))),
    [copiedFrom],
  );
  // Each block's open state, kept for the session's rows the virtual list mounts again (a new map per session).
  const keptRef = useRef<{ readonly sessionId: string; readonly map: Map<string, KeptOpen> }>(undefined);
  if (keptRef.current?.sessionId !== sessionId) keptRef.current = { sessionId, map: new Map() };
  const kept = keptRef.current.map;
  return useMemo(
    () => ({
      sessionId,
      kept,
      shells: shells ?? {},
      expand: located.expand,
      focus: located.focus,
      jump: located.jump,
      openAll,
      liveVersion,
      SubagentView: SubagentTimeline,
      copied,
      measured,
    }),
    [sessionId, kept, shells, located, openAll, liveVersion, copied, measured],
  );
}
