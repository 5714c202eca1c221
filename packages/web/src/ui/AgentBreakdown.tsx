import type { AgentStatsRow, UsageGroupDto } from '../data/types';
import { AgentBadge } from './AgentBadge';
import { fmtCost, fmtNumber, fmtPercent, realErrorRate, realErrors } from './format';

/** Calls, errors and error rate per agent (Tool analytics). */
export function AgentStatsTable({ rows }: { readonly rows: readonly AgentStatsRow[] }) {
  if (rows.length < 2) return null;
  return (
    <div className="card" data-testid="agent-stats">
      <div className="metric-label">Per agent</div>
      <table className="table">
        <thead>
          <tr>
            <th>Agent</th>
            <th>Sessions</th>
            <th>Calls</th>
            <th>Errors</th>
            <th>Error rate</th>
            <th>Most used tools · their error rate</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.agent}>
              <td>
                <AgentBadge agent={r.agent} />
              </td>
              <td>{fmtNumber(r.sessions)}</td>
              <td>{fmtNumber(r.calls)}</td>
              {/* real errors, as the cards and the tool table count them */}
              <td>{fmtNumber(realErrors(r))}</td>
              <td>{fmtPercent(realErrorRate(r))}</td>
              <td className="dim">
                {r.tools
                  .slice(0, 4)
                  // counted as the row's error rate is: expected errors apart
                  .map((t) => `${t.tool} ${fmtPercent(realErrorRate(t))}`)
                  .join(' · ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Cost and responses per agent (Usage). */
export function AgentUsageTable({
  rows,
}: {
  readonly rows: readonly (UsageGroupDto & { readonly agent: AgentStatsRow['agent'] })[];
}) {
  if (rows.length < 2) return null;
  return (
    <div className="card" data-testid="agent-usage">
      <div className="metric-label">Per agent</div>
      <table className="table">
        <thead>
          <tr>
            <th>Agent</th>
            <th>Responses</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.agent}>
              <td>
                <AgentBadge agent={r.agent} />
              </td>
              <td>{fmtNumber(r.responses)}</td>
              <td>{fmtCost(r.costUsd, r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
