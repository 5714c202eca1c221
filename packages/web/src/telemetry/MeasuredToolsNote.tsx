import { plural } from '@agentdash/core/present';
import type { MeasuredToolStatsDto } from '../data/types';
import { fmtDuration } from '../ui/format';
import { SourceBadge } from './SourceBadge';

/** Tools shown by name at most; the rest are in `--json`. */
const SHOWN_TOOLS = 8;

/**
 * The tool runs Claude Code's telemetry measured in scope, per tool: the charts and table beside give every call's
 * call→result time (inferred); this gives the client's own clock where it has one.
 */
export function MeasuredToolsNote({ measured }: { measured: MeasuredToolStatsDto | undefined }) {
  if (measured === undefined) return null;
  const tools = Object.entries(measured.byTool).slice(0, SHOWN_TOOLS);
  return (
    <div className="tel-figures" data-testid="measured-tools-note">
      <span>
        <SourceBadge source="measured" /> {plural(measured.calls, 'tool run')} in {plural(measured.sessions, 'session')}{' '}
        measured by the agents' telemetry: p50 <b>{fmtDuration(measured.durationMs.p50)}</b>, p95{' '}
        <b>{fmtDuration(measured.durationMs.p95)}</b>
      </span>
      {tools.map(([name, t]) => (
        <span key={name} data-testid="measured-tool" data-tool={name}>
          {name} ×{t.calls} p50 <b>{fmtDuration(t.durationMs.p50)}</b>
        </span>
      ))}
      <span className="dim">
        <SourceBadge source="inferred" /> the durations below are call→result times from the transcripts
      </span>
    </div>
  );
}
