import { modelLabel, noUsageText, timeIsOwn } from '@agentdash/core/present';
import { activeMs } from '@agentdash/core/time';
import { Fragment, useMemo } from 'react';
import type { SessionDetail } from '../../data/types';
import { FailedRequests } from '../../ui/FailedRequests';
import {
  costGapsNote,
  fmtCost,
  fmtDate,
  fmtDuration,
  fmtNumber,
  formatTokenParts,
  nounFor,
  sumTokens,
} from '../../ui/format';
import { TimeBar } from '../../ui/TimeBar';

/** The session's figures: when, how long (wall and active), messages, calls, errors, tokens (input and cache apart), cost. */
export function SessionStats({ detail }: { detail: SessionDetail }) {
  const s = detail.session;
  // Input and cache tokens apart (the header used to add cache reads to "in").
  const tokens = useMemo(
    () => formatTokenParts(sumTokens(Object.values(detail.usageByModel)), s),
    [detail.usageByModel, s],
  );
  const realErrors = s.errors - s.expectedErrors;
  // Responses that recorded no usage at all (a legacy Codex rollout): unknown tokens, not "0 in".
  // The model's responses: the list's messages less its prompts, both its own (an API-error answer the client wrote
  // is none; a resume's copies count where they began).
  const noUsage = noUsageText(Math.max(0, s.messages - (s.prompts ?? detail.counts.prompts)), detail.usageByModel);
  // A fork's or resume's wall time is its own records' (the index leaves out the conversation it copied).
  const resumed = timeIsOwn(detail.copiedFrom);
  // No wall time (records without a span): no active time either, rather than "0 ms".
  const active = s.time ? activeMs(s.time) : null;
  // On a phone the row wraps, errors and cost first (`.stat-lead`, styles.css): every figure in view, none scrolled to.
  return (
    <div className="session-stats" data-testid="session-stats">
      <span>{fmtDate(s.startedAt)}</span>
      <span
        title={
          resumed
            ? 'Wall time: its own records, first to last, after the conversation it copied'
            : 'Wall time: first record to last'
        }
        data-testid="wall-time"
      >
        <b>{fmtDuration(s.durationMs)}</b> wall
      </span>
      {active !== null && (
        <span title="Active time: the wall time less idle gaps" data-testid="active-time">
          <b>{fmtDuration(active)}</b> active
        </span>
      )}
      <span>
        <b>{fmtNumber(s.messages)}</b> {nounFor(s.messages, 'message')}
      </span>
      <span>
        <b>{fmtNumber(s.toolCalls)}</b> {nounFor(s.toolCalls, 'tool call')}
      </span>
      <span className="stat-lead">
        {realErrors > 0 ? <b className="err-text">{realErrors}</b> : <b>0</b>} {nounFor(realErrors, 'error')}
        {s.expectedErrors > 0 && <span className="dim"> +{s.expectedErrors} expected</span>}
      </span>
      <FailedRequests
        failed={detail.counts.failedRequests ?? s.apiErrors ?? 0}
        retried={detail.counts.retriedRequests ?? s.apiRetries ?? 0}
      />
      {detail.subagents.length > 0 && (
        <span>
          <b>{detail.subagents.length}</b> {nounFor(detail.subagents.length, 'subagent')}
        </span>
      )}
      <span className="stat-tokens" data-testid="session-tokens">
        {/* the separators outside the parts: a phone's line breaks after one, never inside a part */}
        {noUsage !== undefined && <span>tokens {noUsage}</span>}
        {(noUsage === undefined ? tokens : []).map((p, i) => (
          <Fragment key={p.label}>
            {i > 0 && ' · '}
            <span>
              {i === 0 && 'tokens '}
              <b>{p.value}</b> {p.label}
            </span>
          </Fragment>
        ))}
        {detail.counts.warmups > 0 && (
          <span
            className="dim"
            title="Requests the client sent at start to pre-warm its subagents' prompt caches: billed, not subagents"
          >
            {' '}
            ({detail.counts.warmups} warm-up {nounFor(detail.counts.warmups, 'request')})
          </span>
        )}
      </span>
      <span
        data-testid="session-cost"
        className={`stat-lead cost ${s.costUsd === null ? 'unknown' : ''}`}
        title={costGapsNote(s)}
      >
        cost <b>{fmtCost(s.costUsd, s)}</b>
      </span>
      <span className="stats-extra">
        <TimeBar time={s.time} width={160} legend />
      </span>
      {s.models.map((m) => (
        <span key={m} className="pill stats-extra">
          {modelLabel(m)}
        </span>
      ))}
      {s.versions.map((v) => (
        <span key={v} className="pill stats-extra">
          v{v}
        </span>
      ))}
    </div>
  );
}
