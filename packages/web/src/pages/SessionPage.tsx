import { useState } from 'react';
import { TelemetrySessionView } from '../telemetry/TelemetrySessionView';
import { useSessionTelemetry } from '../telemetry/use-telemetry';
import { TimelineCtx } from '../timeline/context';
import { useSessionIssues } from '../ui/file-issues';
import { PartialCopyNotice } from '../ui/PartialCopyNotice';
import { holdsTranscript, TierNotice } from '../ui/TeamBadge';
import { UnreadableNotice } from '../ui/UnreadableNotice';
import { NavBar } from './session/NavBar';
import { ReadingNotice } from './session/ReadingNotice';
import { SessionHeader } from './session/SessionHeader';
import { JumpLatest, SessionLoadError, TimelineEmpty } from './session/SessionPlaceholders';
import { SessionTimeline } from './session/SessionTimeline';
import { TierCalls } from './session/TierCalls';
import { useSessionFind } from './session/use-session-find';
import { useSessionNav } from './session/use-session-nav';
import { useLiveSession, useSessionView, useTimelineContext, useTimelineScroll } from './session/use-session-view';

/**
 * One session: its header, the error and find bar, and the virtual timeline. The data, the moves through it and
 * find-in-session are hooks of their own (`session/use-session-*.ts`).
 */
export function SessionPage({ id, call, find }: { id: string; call: string | undefined; find?: string | undefined }) {
  const view = useSessionView(id);
  // Claude Code's own telemetry: measured times beside the transcript's, or the whole page when it has no transcript
  const telemetry = useSessionTelemetry(view.sessionId);
  const scroll = useTimelineScroll();
  const nav = useSessionNav(view, scroll.scrollRef);
  const { missingCall, ...findBarProps } = useSessionFind(view, nav, scroll.scrollRef, call, find);
  useLiveSession(view, scroll.atBottom, nav.virtualizer);
  const [openAll, setOpenAll] = useState({ version: 0, open: false });
  const ctx = useTimelineContext(view, nav.located, openAll, telemetry?.calls);

  const { detail, total } = view;
  // the session's issues, for the notices of unreadable files and kept partial copies
  const issues = useSessionIssues(detail);
  if (view.error && !detail) {
    if (telemetry) return <TelemetrySessionView id={view.sessionId} telemetry={telemetry} />;
    if (telemetry === undefined && view.error.status === 404) return <div className="page dim">Loading…</div>;
    return <SessionLoadError error={view.error} />;
  }
  return (
    <TimelineCtx.Provider value={ctx}>
      <div className="session-layout">
        <SessionHeader
          sessionId={view.sessionId}
          detail={detail}
          telemetry={telemetry ?? undefined}
          transcriptId={view.transcriptId}
          folded={scroll.scrolled}
          onOpenAll={(open) => setOpenAll((o) => ({ version: o.version + 1, open }))}
        />
        {detail && <UnreadableNotice detail={detail} issues={issues} />}
        {detail && <PartialCopyNotice detail={detail} issues={issues} />}
        {detail && <TierNotice row={detail.session} />}
        {detail && (
          <ReadingNotice detail={detail} waiting={total > 0 && view.pages.size === 0} failed={view.pageError} />
        )}
        {detail && total > 0 && <NavBar {...nav.errorBar} {...findBarProps} />}
        {missingCall && (
          <div className="notice warn" role="status" data-testid="call-missing">
            The linked call <code>{missingCall.call}</code> is not in this session ({missingCall.why}): the link may be
            to another session&apos;s call, or to one this session no longer holds.
          </div>
        )}
        <SessionTimeline
          virtualizer={nav.virtualizer}
          scrollRef={scroll.scrollRef}
          onScroll={scroll.onScroll}
          rowIndex={nav.rowIndex}
          eventAt={view.eventAt}
          cursor={nav.cursor}
          empty={
            // a team session shared below the full tier: no timeline, its calls as the tier holds them
            detail && !holdsTranscript(detail.session) ? (
              <TierCalls row={detail.session} />
            ) : detail && total === 0 && view.held ? (
              <TimelineEmpty warmups={detail.session.warmups} />
            ) : null
          }
        />
        {scroll.showJump && <JumpLatest onClick={() => nav.virtualizer.scrollToIndex(total - 1, { align: 'end' })} />}
      </div>
    </TimelineCtx.Provider>
  );
}
