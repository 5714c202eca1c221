import { plural } from '@agentdash/core/present';
import type { StatsResponse } from '../../data/types';
import { fmtNumber, fmtPercent, realErrorRate, realErrors } from '../../ui/format';
import type { ToolStat } from './use-analytics';

export function AnalyticsCards({
  totals,
  tools,
}: {
  totals: StatsResponse['totals'] | undefined;
  tools: readonly ToolStat[];
}) {
  return (
    <div className="cards">
      <div className="card">
        <div className="metric-label">Tool calls</div>
        <div className="metric-value">{fmtNumber(totals?.calls)}</div>
        <div className="metric-note">{totals ? `across ${plural(totals.sessions, 'session')}` : '—'}</div>
      </div>
      <div className="card">
        <div className="metric-label">Errors</div>
        {/* red only when there are some: none is no alarm */}
        <div className="metric-value" style={totals && realErrors(totals) > 0 ? { color: 'var(--err)' } : undefined}>
          {totals ? fmtNumber(realErrors(totals)) : '—'}
        </div>
        <div className="metric-note">{totals?.calls ? fmtPercent(realErrorRate(totals)) : '—'} of calls</div>
      </div>
      <div className="card">
        <div className="metric-label">Expected errors</div>
        <div className="metric-value" style={{ color: 'var(--exp)' }}>
          {fmtNumber(totals?.expectedErrors)}
        </div>
        <div className="metric-note">declined plans, finished shells…</div>
      </div>
      <div className="card">
        <div className="metric-label">Tools used</div>
        <div className="metric-value">{totals ? fmtNumber(tools.length) : '—'}</div>
        <div className="metric-note">{tools[0] ? `most used: ${tools[0].tool}` : ''}</div>
      </div>
    </div>
  );
}
