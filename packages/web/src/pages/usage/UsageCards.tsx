import { formatTokensAtLeast, inputIsLowerBound, outputIsLowerBound } from '@agentdash/core/present';
import type { UsageResponse } from '../../data/types';
import { fmtCost, fmtDuration, fmtNumber, fmtPercent } from '../../ui/format';
import { type Metric, tokensOf } from './use-usage';

/**
 * The period's totals; the metric the page shows (cost or tokens) comes first. `blocksOnly`: the agents whose usage
 * limits the 5-hour blocks are, when the agent chosen has none (`blocksOnlyOf`).
 */
export function UsageCards({
  usage,
  metric = 'cost',
  blocksOnly,
}: {
  usage: UsageResponse | undefined;
  metric?: Metric;
  blocksOnly?: string | undefined;
}) {
  const t = usage?.totals;
  const active = blocksOnly === undefined ? usage?.blocks.find((b) => b.isActive) : undefined;
  const cost = (
    <div className="card" key="cost" data-testid="usage-card-cost">
      <div className="metric-label">Cost</div>
      <div className="metric-value" data-testid="usage-total-cost">
        {t ? fmtCost(t.costUsd, t) : '—'}
      </div>
      <div className="metric-note">{fmtNumber(t?.responses)} API responses</div>
    </div>
  );
  // Lower bounds where some responses recorded no input or kept only the stream's first output count, as the cost is.
  const inputCut = inputIsLowerBound(t);
  const outputCut = outputIsLowerBound(t);
  const tokens = (
    <div className="card" key="tokens" data-testid="usage-card-tokens">
      <div className="metric-label">Tokens</div>
      <div className="metric-value">{t ? formatTokensAtLeast(tokensOf(t), inputCut || outputCut) : '—'}</div>
      <div className="metric-note">
        {t
          ? `${formatTokensAtLeast(t.inputTokens, inputCut)} in · ${formatTokensAtLeast(t.outputTokens, outputCut)} out`
          : ''}
        {t && t.reasoningOutputTokens > 0 ? (
          <span data-testid="usage-reasoning"> (of which reasoning {fmtNumber(t.reasoningOutputTokens)})</span>
        ) : null}
      </div>
    </div>
  );
  return (
    <div className="cards usage-cards">
      {metric === 'tokens' ? [tokens, cost] : [cost, tokens]}
      <div className="card">
        <div className="metric-label">Cache hit ratio</div>
        <div className="metric-value" data-testid="cache-hit">
          {/* no response, no ratio: 0 % would say that nothing was cached */}
          {t && t.responses > 0 ? fmtPercent(t.cacheHitRatio) : '—'}
        </div>
        <div className="metric-note">
          {t ? `${fmtNumber(t.cacheReadInputTokens)} read · ${fmtNumber(t.cacheCreationInputTokens)} written` : ''}
        </div>
      </div>
      <div className="card">
        <div className="metric-label">5-hour block</div>
        <div className="metric-value">
          {active === undefined
            ? '—'
            : metric === 'tokens'
              ? fmtNumber(tokensOf(active))
              : fmtCost(active.costUsd, active)}
        </div>
        <div className="metric-note">
          {blocksOnly !== undefined
            ? `${blocksOnly}'s usage limits only`
            : active
              ? `active · ${fmtDuration(active.remainingMs)} left`
              : usage
                ? 'no active block'
                : ''}
        </div>
      </div>
    </div>
  );
}
