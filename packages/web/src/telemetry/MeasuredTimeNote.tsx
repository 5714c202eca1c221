import { plural } from '@agentdash/core/present';
import type { MeasuredTimeDto } from '../data/types';
import { fmtDuration } from '../ui/format';
import { SourceBadge } from './SourceBadge';

/**
 * Where the time went, as the agents' own telemetry measured it for the sessions that have some: the charts beside are
 * inferred from the transcripts' timestamps for every session; this says what the client's own clock gives.
 */
export function MeasuredTimeNote({ measured }: { measured: MeasuredTimeDto | undefined }) {
  if (measured === undefined) {
    return (
      <div className="tel-figures dim" data-testid="measured-time-note" data-source="inferred">
        <SourceBadge source="inferred" /> model and tool time below are inferred from the transcripts' timestamps (no
        session here has its agent's own telemetry)
      </div>
    );
  }
  return (
    <div className="tel-figures" data-testid="measured-time-note" data-source="measured">
      <span>
        {plural(measured.sessions, 'session')} with agent telemetry: model <b>{fmtDuration(measured.modelMs)}</b>{' '}
        <SourceBadge source="measured" />{' '}
        <span className="dim">(inferred {fmtDuration(measured.inferredModelMs)})</span>
      </span>
      <span>
        tools <b>{fmtDuration(measured.toolMs)}</b> <SourceBadge source="measured" />{' '}
        <span className="dim">(inferred {fmtDuration(measured.inferredToolMs)})</span>
      </span>
      <span className="dim">
        {plural(measured.apiRequests, 'API call')} · {plural(measured.toolCalls, 'tool call')}; the charts below are
        inferred for every session
      </span>
    </div>
  );
}
