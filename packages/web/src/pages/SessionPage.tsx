import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiRequestError, api, subscribeLive } from '../data/client';
import type { EventDto, IssueDto, SessionDetail } from '../data/types';
import { type TimelineContext, TimelineCtx } from '../timeline/context';
import { EventView } from '../timeline/EventView';
import { SubagentTimeline } from '../timeline/SubagentTimeline';
import { AgentBadge } from '../ui/AgentBadge';
import { fmtCost, fmtDate, fmtDuration, fmtNumber, shortPath } from '../ui/format';
import { waterfallHref } from '../ui/router';
import { TimeBar } from '../ui/TimeBar';
import { UnreadableNotice } from '../ui/UnreadableNotice';

const PAGE = 100;

export function SessionPage({ id, call }: { id: string; call: string | undefined }) {
  const [detail, setDetail] = useState<SessionDetail | undefined>();
  const [error, setError] = useState<{ status: number; message: string } | undefined>();
  const [pages, setPages] = useState<ReadonlyMap<number, readonly EventDto[]>>(new Map());
  const inflight = useRef(new Set<number>());
  const [openAll, setOpenAll] = useState({ version: 0, open: false });
  const [liveVersion, setLiveVersion] = useState(0);
  const [located, setLocated] = useState<{ expand: Set<string>; focus: string | undefined }>({
    expand: new Set(),
    focus: undefined,
  });
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(false);
  const [showJump, setShowJump] = useState(false);
  const [issues, setIssues] = useState<readonly IssueDto[] | undefined>();
  const sessionId = detail?.session.id ?? id;

  const loadDetail = useCallback(async () => {
    try {
      const first = await api.session(id);
      setDetail(first);
      setError(undefined);
      if (first.pending !== true) return first;
      // A huge session: its header came from the index at once; the timeline follows once it is parsed.
      const d = await api.session(id, undefined, true);
      setDetail(d);
      return d;
    } catch (e) {
      setError({
        status: e instanceof ApiRequestError ? e.status : 0,
        message: e instanceof Error ? e.message : String(e),
      });
      return undefined;
    }
  }, [id]);

  const loadPage = useCallback(
    async (page: number, force = false) => {
      if (inflight.current.has(page) && !force) return;
      inflight.current.add(page);
      try {
        const r = await api.events(id, page * PAGE, PAGE);
        setPages((old) => {
          const next = new Map(old);
          next.set(page, r.events);
          return next;
        });
      } finally {
        inflight.current.delete(page);
      }
    },
    [id],
  );

  useEffect(() => {
    void loadDetail();
  }, [loadDetail]);

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

  const pagesRef = useRef(pages);
  pagesRef.current = pages;

  const total = detail?.totalEvents ?? 0;
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 140,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();

  // Load the pages the visible rows need.
  useEffect(() => {
    const needed = new Set(items.map((v) => Math.floor(v.index / PAGE)));
    for (const p of needed) if (!pages.has(p)) void loadPage(p);
  }, [items, pages, loadPage]);

  // Deep link to a call: find it, expand what leads to it, scroll there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: run once per target when the session is known
  useEffect(() => {
    if (!call || !detail) return;
    let cancelled = false;
    api
      .locate(detail.session.id, call)
      .then((loc) => {
        if (cancelled) return;
        setLocated({ expand: new Set(loc.expand), focus: call });
        // Sizes are estimated until rows are measured: scroll, let rows render and measure, repeat until the
        // call's block exists, then centre it.
        let tries = 0;
        let settled = 0;
        const step = () => {
          if (cancelled) return;
          const el = document.getElementById(`call-${call}`);
          if (el) {
            el.scrollIntoView({ block: 'center' });
            if (++settled < 4) setTimeout(step, 200);
            return;
          }
          virtualizer.scrollToIndex(loc.index, { align: 'start' });
          if (++tries < 60) setTimeout(step, 120);
        };
        step();
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [call, detail?.session.id]);

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

  const tokens = useMemo(() => {
    let input = 0;
    let output = 0;
    for (const u of Object.values(detail?.usageByModel ?? {})) {
      input += u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;
      output += u.outputTokens;
    }
    return { input, output };
  }, [detail]);

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

  const s = detail?.session;
  const realErrors = s ? s.errors - s.expectedErrors : 0;
  return (
    <TimelineCtx.Provider value={ctx}>
      <div className="session-layout">
        <div className="session-head">
          <div className="crumbs">
            <a href="#/">Sessions</a>
            <span>/</span>
            <span className="mono">{shortPath(s?.projectPath)}</span>
            {detail?.gitBranch && <span className="pill">⎇ {detail.gitBranch}</span>}
            {s?.isLive && <span className="badge live">live</span>}
            {s?.archived && (
              <span
                className="badge neutral"
                data-testid="archived-badge"
                title="Its transcript files are gone from disk (Claude Code deletes old ones); AgentDash keeps it in its archive"
              >
                archived
              </span>
            )}
          </div>
          <div className="row" style={{ justifyContent: 'space-between', flexWrap: 'nowrap' }}>
            <h1 data-testid="session-title">{s ? s.title || 'Untitled session' : 'Loading…'}</h1>
            <div className="row" style={{ flexWrap: 'nowrap' }}>
              <a className="btn" href={waterfallHref(sessionId)} data-testid="open-waterfall">
                Waterfall
              </a>
              <button
                type="button"
                className="btn"
                onClick={() => setOpenAll((o) => ({ version: o.version + 1, open: true }))}
                data-testid="expand-all"
              >
                Expand all
              </button>
              <button
                type="button"
                className="btn"
                onClick={() => setOpenAll((o) => ({ version: o.version + 1, open: false }))}
                data-testid="collapse-all"
              >
                Collapse all
              </button>
            </div>
          </div>
          {s && detail && (
            <div className="session-stats">
              <span>{fmtDate(s.startedAt)}</span>
              <span>
                <b>{fmtDuration(s.durationMs)}</b>
              </span>
              <span>
                <b>{fmtNumber(s.messages)}</b> messages
              </span>
              <span>
                <b>{fmtNumber(s.toolCalls)}</b> tool calls
              </span>
              <span>
                {realErrors > 0 ? <b style={{ color: 'var(--err)' }}>{realErrors}</b> : <b>0</b>} errors
                {s.expectedErrors > 0 && <span className="dim"> · {s.expectedErrors} expected</span>}
              </span>
              {detail.subagents.length > 0 && (
                <span>
                  <b>{detail.subagents.length}</b> subagents
                </span>
              )}
              <span>
                <b>{fmtNumber(tokens.output)}</b> tokens out · <b>{fmtNumber(tokens.input)}</b> in
              </span>
              <span
                data-testid="session-cost"
                className={`cost ${s.costUsd === null ? 'unknown' : ''}`}
                title={s.unpricedModels.length > 0 ? `No price for ${s.unpricedModels.join(', ')}` : undefined}
              >
                cost <b>{fmtCost(s.costUsd, s.unpricedModels)}</b>
              </span>
              <TimeBar time={s.time} width={160} legend />
              <AgentBadge agent={s.agent} />
              {s.models.map((m) => (
                <span key={m} className="pill">
                  {m}
                </span>
              ))}
              {s.versions.map((v) => (
                <span key={v} className="pill">
                  v{v}
                </span>
              ))}
              {detail.issues > 0 && (
                <button
                  type="button"
                  className="btn small"
                  data-testid="issues-toggle"
                  onClick={() =>
                    issues
                      ? setIssues(undefined)
                      : void api
                          .issues(detail.session.id)
                          .then((r) => setIssues(r.issues))
                          .catch(() => setIssues([]))
                  }
                >
                  ⚠ {detail.issues} parse {detail.issues === 1 ? 'issue' : 'issues'}
                </button>
              )}
            </div>
          )}
          {detail && <UnreadableNotice detail={detail} />}
          {issues && (
            <div className="issues" data-testid="issues">
              {issues.length === 0 && <div className="dim">No issues.</div>}
              {issues.slice(0, 200).map((i) => (
                <div key={`${i.file}:${i.line}:${i.code}`} className="issue">
                  <span className="pill">{i.code}</span>
                  <span className="mono dim">line {i.line}</span>
                  <span>{i.message}</span>
                </div>
              ))}
            </div>
          )}
        </div>
        <div className="timeline-scroll" ref={scrollRef} onScroll={onScroll} data-testid="timeline-scroll">
          <div className="timeline" data-testid="timeline">
            {detail &&
              total === 0 &&
              (detail.pending ? (
                <div className="empty" data-testid="timeline-loading">
                  Loading the timeline… (a large session takes a few seconds to read)
                </div>
              ) : (
                <div className="empty">This session has no messages yet.</div>
              ))}
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((v) => {
                const page = pages.get(Math.floor(v.index / PAGE));
                const event = page?.[v.index % PAGE];
                const previous =
                  v.index > 0 ? pages.get(Math.floor((v.index - 1) / PAGE))?.[(v.index - 1) % PAGE] : undefined;
                return (
                  <div
                    key={v.key}
                    data-index={v.index}
                    ref={virtualizer.measureElement}
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      width: '100%',
                      transform: `translateY(${v.start}px)`,
                    }}
                  >
                    {event ? <EventView event={event} previous={previous} /> : <div className="ev-placeholder" />}
                  </div>
                );
              })}
            </div>
          </div>
        </div>
        {showJump && (
          <button
            type="button"
            className="btn primary"
            style={{ position: 'fixed', right: 28, bottom: 24 }}
            onClick={() => virtualizer.scrollToIndex(total - 1, { align: 'end' })}
          >
            ↓ Latest
          </button>
        )}
      </div>
    </TimelineCtx.Provider>
  );
}
