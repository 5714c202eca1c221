import type { SessionTelemetryDto, TimeFigure } from '../data/types';
import { costGapsNote, fmtCost, fmtDuration, fmtPercent } from '../ui/format';
import { SourceBadge, SourceLegend } from './SourceBadge';

function Figure({ label, figure, inferred }: { label: string; figure: TimeFigure; inferred: number | undefined }) {
  return (
    <span data-testid={`tel-${label}-time`} data-source={figure.source}>
      {label} <b>{fmtDuration(figure.ms)}</b> <SourceBadge source={figure.source} />
      {figure.source === 'measured' && inferred !== undefined && (
        <span className="dim" title="What AgentDash infers from the transcript's timestamps (main thread)">
          {' '}
          (inferred {fmtDuration(inferred)})
        </span>
      )}
    </span>
  );
}

/**
 * A session's time and cost as Claude Code's telemetry measured them, beside AgentDash's own figures: the client's
 * `cost_usd` next to the computed cost, flagged with both figures when they differ by more than 1 %.
 */
export function TelemetryFigures({ telemetry }: { telemetry: SessionTelemetryDto }) {
  const { cost } = telemetry;
  return (
    <div className="tel-figures" data-testid="telemetry-figures">
      <Figure label="model" figure={telemetry.modelTime} inferred={telemetry.inferred?.modelMs} />
      <Figure label="tools" figure={telemetry.toolTime} inferred={telemetry.inferred?.toolMs} />
      {telemetry.permissionWaitMs !== null && telemetry.permissionWaitMs > 0 && (
        <span title="Waiting for a permission answer (blocked_on_user spans)">
          permission waits <b>{fmtDuration(telemetry.permissionWaitMs)}</b> <SourceBadge source="measured" />
        </span>
      )}
      <span
        data-testid="tel-cost"
        data-flagged={cost.flagged}
        className={cost.flagged ? 'tel-flag' : undefined}
        title={
          cost.flagged
            ? "The client's own cost and AgentDash's differ by more than 1 % (the client's includes its side requests)"
            : "The client's own cost_usd, summed over its API requests"
        }
      >
        client cost {telemetry.telemetry.costReported ? <b>{fmtCost(cost.clientUsd)}</b> : 'not exported'}
        {cost.computedUsd !== null && (
          <>
            {' '}
            · AgentDash <b title={costGapsNote(cost.gaps)}>{fmtCost(cost.computedUsd, cost.gaps)}</b>
            {cost.flagged && cost.difference !== null && (
              <>
                {' '}
                ⚠ {cost.difference > 0 ? '+' : '−'}
                {fmtPercent(Math.abs(cost.difference))}
              </>
            )}
          </>
        )}
      </span>
      <SourceLegend />
    </div>
  );
}
