import type { CallDto } from '../data/types';
import { useTimeline } from '../timeline/context';
import { fmtDuration } from '../ui/format';
import { SourceBadge } from './SourceBadge';

/**
 * A call's duration in the timeline: the client's measured run when the session has telemetry for it, else the
 * transcript's (result time less call time); with telemetry, each says which it is.
 */
export function CallDuration({ call }: { call: CallDto }) {
  const { measured } = useTimeline();
  const m = measured?.[call.id];
  return (
    <span style={{ minWidth: 48, textAlign: 'right' }} data-testid="call-duration">
      {fmtDuration(m ? m.durationMs : call.durationMs)}
      {measured !== undefined && <SourceBadge source={m ? 'measured' : 'inferred'} compact />}
    </span>
  );
}
