import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, subscribeLive } from '../data/client';
import { type TimelineContext, TimelineCtx } from '../timeline/context';
import { SubagentTimeline } from '../timeline/SubagentTimeline';
import { useKeys } from '../ui/keys';
import { UnreadableNotice } from '../ui/UnreadableNotice';
import { useFindHighlight } from './session/find-highlight';
import { NavBar } from './session/NavBar';
import { type Step, stepTo, useRows } from './session/rows';
import { SessionHeader } from './session/SessionHeader';
import { SessionTimeline } from './session/SessionTimeline';
import { useFind } from './session/use-find';
import { useJump } from './session/use-jump';
import { PAGE, useEventPages, useSessionDetail } from './session/use-session-data';
import { useSessionErrors } from './session/use-session-errors';

export function SessionPage({ id, call, find }: { id: string; call: string | undefined; find?: string | undefined }) {
  const { detail, error, loadDetail } = useSessionDetail(id);
  const { pages, pagesRef, loadPage, eventAt } = useEventPages(id);
  const sessionId = detail?.session.id ?? id;
  const [openAll, setOpenAll] = useState({ version: 0, open: false });
  const [liveVersion, setLiveVersion] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const findInput = useRef<HTMLInputElement>(null);
  const atBottom = useRef(false);
  const [showJump, setShowJump] = useState(false);

  // Errors: navigation and the errors-only view (rows are then the events that hold an error).
  const errors = useSessionErrors(detail?.session.id, detail?.session.errors ?? 0, liveVersion);
  const [errorPos, setErrorPos] = useState(-1);
  const [errorsOnly, setErrorsOnly] = useState(false);
  const total = detail?.totalEvents ?? 0;
  const { filtered, count, rowIndex, rowOf } = useRows(errors, errorsOnly, total);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 140,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  useEffect(() => {
    const needed = new Set(items.map((v) => Math.floor(rowIndex(v.index) / PAGE)));
    for (const p of needed) if (!pages.has(p)) void loadPage(p);
  }, [items, pages, loadPage, rowIndex]);

  const { located, jump } = useJump(virtualizer, scrollRef, rowOf);
  const [cursor, setCursor] = useState(-1);

  // Find in session.
  const [query, setQuery] = useState(find ?? '');
  const found = useFind(detail?.session.id, query, liveVersion);
  const [hitPos, setHitPos] = useState(-1);
  const [showHits, setShowHits] = useState(find !== undefined && find !== '');
  const q = query.trim();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts before its first hit
  useEffect(() => setHitPos(-1), [q]);
  useFindHighlight(scrollRef, q);

  const goError = (step: Step) => {
    if (errors.length === 0) return;
    const next = stepTo(errorPos, step, errors.length);
    const hit = errors[next];
    if (!hit) return;
    setErrorPos(next);
    setCursor(rowOf(hit.index));
    jump({ index: hit.index, expand: hit.expand, callId: hit.callId });
  };
  const goHit = (step: Step) => {
    const hits = found?.hits ?? [];
    if (hits.length === 0) return;
    const next = stepTo(hitPos, step, hits.length);
    const hit = hits[next];
    if (!hit) return;
    if (filtered && rowOf(hit.index) < 0) setErrorsOnly(false);
    setHitPos(next);
    setCursor(filtered && rowOf(hit.index) >= 0 ? rowOf(hit.index) : hit.index);
    jump({ index: hit.index, expand: hit.expand, callId: hit.callId, text: q });
  };
  const moveCursor = (to: number) => {
    if (count === 0) return;
    const next = Math.max(0, Math.min(count - 1, to));
    setCursor(next);
    virtualizer.scrollToIndex(next, { align: next === count - 1 && to > next ? 'end' : 'start' });
  };
  const visibleCursor = () => {
    const shown = virtualizer.getVirtualItems();
    const first = shown.find((v) => v.end > (scrollRef.current?.scrollTop ?? 0));
    return shown.some((v) => v.index === cursor) ? cursor : (first?.index ?? 0) - 1;
  };
  useKeys({
    j: () => moveCursor(visibleCursor() + 1),
    k: () => moveCursor(visibleCursor() - 1),
    e: () => goError(1),
    E: () => goError(-1),
    g: () => moveCursor(0),
    Home: () => moveCursor(0),
    G: () => moveCursor(count),
    End: () => moveCursor(count),
    n: () => goHit(1),
    N: () => goHit(-1),
    f: () => findInput.current?.focus(),
  });

  // Live: reload the summary and every loaded page; keep the reader's scroll position (or follow the end).
  // biome-ignore lint/correctness/useExhaustiveDependencies: virtualizer is stable for the page's life
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

  // Deep link to a call (a search hit): open what leads to it, scroll there, mark the match.
  // biome-ignore lint/correctness/useExhaustiveDependencies: run once per target when the session is known
  useEffect(() => {
    if (!call || !detail) return;
    let cancelled = false;
    api
      .locate(detail.session.id, call)
      .then((loc) => {
        if (!cancelled) jump({ index: loc.index, expand: loc.expand, callId: call, text: find });
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [call, detail?.session.id]);
  // …and count the deep-linked call as the current match once the hits are known.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per result
  useEffect(() => {
    if (call && found && hitPos < 0) {
      const at = found.hits.findIndex((h) => h.callId === call);
      if (at >= 0) setHitPos(at);
    }
  }, [found]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    setShowJump(!atBottom.current && el.scrollHeight > el.clientHeight * 2);
  }, []);

  const ctx: TimelineContext = useMemo(
    () => ({
      sessionId,
      shells: detail?.shells ?? {},
      expand: located.expand,
      focus: located.focus,
      openAll,
      liveVersion,
      SubagentView: SubagentTimeline,
    }),
    [sessionId, detail?.shells, located, openAll, liveVersion],
  );

  if (error && !detail) {
    return (
      <div className="page">
        <div className="empty" data-testid="session-error">
          <h2 style={{ color: 'var(--text)' }}>
            {error.status === 404 ? 'Session not found' : 'Could not load this session'}
          </h2>
          <p>{error.message}</p>
          <a href="#/">← All sessions</a>
        </div>
      </div>
    );
  }

  const empty =
    detail && total === 0 ? (
      detail.pending ? (
        <div className="empty" data-testid="timeline-loading">
          Loading the timeline… (a large session takes a few seconds to read)
        </div>
      ) : (
        <div className="empty">This session has no messages yet.</div>
      )
    ) : null;

  return (
    <TimelineCtx.Provider value={ctx}>
      <div className="session-layout">
        <SessionHeader
          sessionId={sessionId}
          detail={detail}
          onOpenAll={(open) => setOpenAll((o) => ({ version: o.version + 1, open }))}
        />
        {detail && <UnreadableNotice detail={detail} />}
        {detail && total > 0 && (
          <NavBar
            errors={errors}
            errorPos={errorPos}
            onError={goError}
            errorsOnly={filtered}
            onErrorsOnly={(on) => {
              setErrorsOnly(on);
              setCursor(-1);
              virtualizer.scrollToIndex(0);
            }}
            findInput={findInput}
            query={query}
            onQuery={setQuery}
            found={q === '' ? undefined : found}
            hitPos={hitPos}
            onHit={goHit}
            showHits={showHits}
            onShowHits={setShowHits}
          />
        )}
        <SessionTimeline
          virtualizer={virtualizer}
          scrollRef={scrollRef}
          onScroll={onScroll}
          rowIndex={rowIndex}
          eventAt={eventAt}
          cursor={cursor}
          empty={empty}
        />
        {showJump && (
          <button
            type="button"
            className="btn primary jump-latest"
            onClick={() => virtualizer.scrollToIndex(total - 1, { align: 'end' })}
          >
            ↓ Latest
          </button>
        )}
      </div>
    </TimelineCtx.Provider>
  );
}
