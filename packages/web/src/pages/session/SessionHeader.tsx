import { plainText } from '@agentdash/core/present';
import { useRef, useState } from 'react';
import { useAgents } from '../../data/agents';
import { api, staticSource } from '../../data/client';
import type { SessionDetail, SessionTelemetryDto } from '../../data/types';
import { TelemetryFigures } from '../../telemetry/TelemetryFigures';
import { AgentBadge } from '../../ui/AgentBadge';
import { ArchivedBadge } from '../../ui/ArchivedBadge';
import { CopyButton } from '../../ui/CopyButton';
import { shortPath } from '../../ui/format';
import { filesHref, listHref, waterfallHref } from '../../ui/router';
import { SecretsBadge } from '../../ui/SecretsBadge';
import { useScrollHint } from '../../ui/scroll-hint';
import { holdsTranscript } from '../../ui/TeamBadge';
import { CopiedNotice } from './CopiedNotice';
import { ExportMenu } from './ExportMenu';
import { IssuesList, type IssuesShown } from './IssuesList';
import { resumableId, resumeCommand } from './resume-command';
import { SessionStats } from './SessionStats';
import { UnlinkedSubagents } from './UnlinkedSubagents';

export function SessionHeader({
  sessionId,
  detail,
  telemetry,
  transcriptId,
  folded = false,
  onOpenAll,
}: {
  sessionId: string;
  detail: SessionDetail | undefined;
  /** The session's id as its transcript names it, once a page of its events came (what Resume gives the agent). */
  transcriptId?: string | undefined;
  /** Claude Code's own telemetry of the session, when it has some. */
  telemetry?: SessionTelemetryDto | undefined;
  /** The timeline is read into: on a phone the header folds to its title, giving the timeline its room. */
  folded?: boolean;
  onOpenAll: (open: boolean) => void;
}) {
  const [issues, setIssues] = useState<IssuesShown | undefined>();
  const actions = useRef<HTMLDivElement>(null);
  useScrollHint(actions);
  const s = detail?.session;
  // An HTML export holds this one session: no list to go back to, no waterfall, nothing to export again.
  const exported = staticSource() !== undefined;
  const agents = useAgents();
  // a team server's session ran on someone's machine under its own id: nothing to resume here
  const resumeId =
    s && s.person === undefined ? resumableId(s.id, transcriptId, s.archived, detail.mainFile) : undefined;
  const resume =
    s && resumeId !== undefined
      ? resumeCommand(agents?.find((a) => a.id === s.agent)?.resume, s.projectPath, resumeId)
      : undefined;
  // below the full tier a team server holds no transcript: no waterfall, export or blocks to open
  const held = holdsTranscript(s);
  return (
    <div className={`session-head${folded ? ' folded' : ''}`} data-testid="session-head">
      <div className="crumbs">
        {!exported && (
          <>
            <a href={listHref()}>Sessions</a>
            <span>/</span>
          </>
        )}
        <span className="mono" title={s?.projectPath ?? ''}>
          {shortPath(s?.projectPath)}
        </span>
        {detail?.gitBranch && <span className="pill">⎇ {detail.gitBranch}</span>}
        {s && <AgentBadge agent={s.agent} />}
        {s && <SecretsBadge count={s.secrets} />}
        {s?.isLive && <span className="badge live">live</span>}
        {s?.archived && <ArchivedBadge />}
      </div>
      <div className="session-title-row">
        <h1 data-testid="session-title" title={s?.title ? plainText(s.title) : undefined}>
          {s
            ? (s.title ? plainText(s.title) : '') ||
              (s.tier === 'summary' ? 'Title not shared (summary tier)' : 'Untitled session')
            : 'Loading…'}
        </h1>
        <div className="session-actions" ref={actions}>
          {resume !== undefined && (
            <CopyButton text={resume} label="Resume" title={`Copy: ${resume}`} className="btn" testId="copy-resume" />
          )}
          {!exported && held && (
            <a className="btn" href={waterfallHref(sessionId)} data-testid="open-waterfall">
              Waterfall
            </a>
          )}
          {held && (
            <a className="btn" href={filesHref(sessionId)} data-testid="open-files">
              Files
            </a>
          )}
          {!exported && held && <ExportMenu sessionId={sessionId} />}
          {held && (
            <>
              <button type="button" className="btn" onClick={() => onOpenAll(true)} data-testid="expand-all">
                Expand all
              </button>
              <button type="button" className="btn" onClick={() => onOpenAll(false)} data-testid="collapse-all">
                Collapse all
              </button>
            </>
          )}
        </div>
      </div>
      {detail && <SessionStats detail={detail} />}
      {detail && <CopiedNotice detail={detail} />}
      {detail && <UnlinkedSubagents detail={detail} />}
      {detail && telemetry && <TelemetryFigures telemetry={telemetry} />}
      {detail && detail.issues > 0 && (
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
                  .catch((e: unknown) => setIssues({ error: e instanceof Error ? e.message : String(e) }))
          }
        >
          ⚠ {detail.issues} {detail.issues === 1 ? 'issue' : 'issues'}
        </button>
      )}
      {issues && <IssuesList issues={issues} counted={detail?.issues ?? 0} />}
    </div>
  );
}
