import type { UsageResponse } from '../../data/types';
import { fmtCost, fmtDuration, fmtNumber, fmtPercent } from '../../ui/format';
import { tokensOf } from './use-usage';

export function UsageCards({ usage }: { usage: UsageResponse | undefined }) {
  const t = usage?.totals;
  const active = usage?.blocks.find((b) => b.isActive);
  return (
    <div className="cards">
      <div className="card">
        <div className="metric-label">Cost</div>
        <div className="metric-value" data-testid="usage-total-cost">
          {t ? fmtCost(t.costUsd, t.unpricedModels) : '—'}
        </div>
        <div className="metric-note">{fmtNumber(t?.responses)} API responses</div>
      </div>
      <div className="card">
        <div className="metric-label">Tokens</div>
        <div className="metric-value">{t ? fmtNumber(tokensOf(t)) : '—'}</div>
        <div className="metric-note">
          {t ? `${fmtNumber(t.inputTokens)} in · ${fmtNumber(t.outputTokens)} out` : ''}
          {t && t.reasoningOutputTokens > 0 ? (
            <span data-testid="usage-reasoning"> (of which reasoning {fmtNumber(t.reasoningOutputTokens)})</span>
          ) : null}
        </div>
      </div>
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
        <div className="metric-value">{active ? fmtCost(active.costUsd, active.unpricedModels) : '—'}</div>
        <div className="metric-note">
          {active ? `active · ${fmtDuration(active.remainingMs)} left` : 'no active block'}
        </div>
      </div>
    </div>
  );
}
