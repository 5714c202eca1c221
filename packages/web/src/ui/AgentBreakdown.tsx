import type { AgentStatsRow } from '../data/types';
import { AgentBadge } from './AgentBadge';
import { fmtNumber, fmtPercent, realErrorRate, realErrors } from './format';

/** Calls, errors and error rate per agent (Tool analytics). */
export function AgentStatsTable({ rows }: { readonly rows: readonly AgentStatsRow[] }) {
  if (rows.length < 2) return null;
  return (
    <div className="card table-scrolls" data-testid="agent-stats">
      <h2>By agent</h2>
      <table className="table compact">
        <thead>
          <tr>
            <th>Agent</th>
            <th className="num">Sessions</th>
            <th className="num">Calls</th>
            <th className="num">Errors</th>
            <th className="num">Error rate</th>
            <th>Most used tools · their error rate</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.agent}>
              <td>
                <AgentBadge agent={r.agent} />
              </td>
              <td className="num">{fmtNumber(r.sessions)}</td>
              <td className="num">{fmtNumber(r.calls)}</td>
              {/* real errors, as the cards and the tool table count them */}
              <td className="num">{fmtNumber(realErrors(r))}</td>
              <td className="num">{fmtPercent(realErrorRate(r))}</td>
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
