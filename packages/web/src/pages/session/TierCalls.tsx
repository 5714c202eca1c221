import { useEffect, useState } from 'react';
import { api } from '../../data/client';
import type { CallRowDto, SessionRow } from '../../data/types';
import { fmtDuration, fmtNumber, fmtTime } from '../../ui/format';

/**
 * A team session shared below the full tier has no timeline on the server, but its calls are there as the tier holds
 * them: each call's tool, status, error category and duration (summary), with its one-line summary and error message
 * (metadata). Listed in time order, so the page still says what the agent did. The session page shows it in place
 * of the timeline.
 */
export function TierCalls({ row }: { readonly row: SessionRow }) {
  const [calls, setCalls] = useState<readonly CallRowDto[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  // Asked again on every update of the session's row (a new push of it): a push may change a call, its status or
  // its summary, without changing how many there are.
  useEffect(() => {
    const ctl = new AbortController();
    api
      .sessionCalls(row.id, ctl.signal)
      .then(setCalls)
      .catch((e: unknown) => {
        if (!ctl.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      });
    return () => ctl.abort();
  }, [row]);
  if (error) return <div className="err-msg">Could not load the calls: {error}</div>;
  if (calls === undefined) return <div className="ev-placeholder" />;
  if (calls.length === 0) return <div className="empty">No tool calls.</div>;
  // what the tier holds of a call's text: nothing at the summary tier (the server answers the tool's name there; a
  // metadata-tier summary may be the tool's name alone: a call without arguments)
  const described = (c: CallRowDto) => (row.tier === 'summary' || c.summary === '' ? undefined : c.summary);
  return (
    <div className="tier-calls" data-testid="tier-calls">
      <h2>
        Calls
        <span className="chart-hint">
          {calls.length < row.toolCalls
            ? `the first ${fmtNumber(calls.length)} of ${fmtNumber(row.toolCalls)}`
            : `${fmtNumber(calls.length)}, as the ${row.tier} tier holds them`}
        </span>
      </h2>
      <table className="table compact">
        <thead>
          <tr>
            <th>Time</th>
            <th>Tool</th>
            <th>What</th>
            <th>Status</th>
            <th className="num">Duration</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((c) => (
            <tr key={c.callId} data-testid="tier-call">
              <td className="mono dim">{fmtTime(c.timestamp)}</td>
              <td className="mono" style={{ whiteSpace: 'nowrap' }}>
                {c.tool}
                {c.agentId !== null && (
                  <span
                    className="badge neutral"
                    style={{ marginLeft: 6 }}
                    title={`made by the subagent ${c.agentId}`}
                    data-testid="tier-call-subagent"
                  >
                    subagent
                  </span>
                )}
              </td>
              {/* takes the width the other columns leave, and cuts its line there */}
              <td style={{ maxWidth: 0, width: '100%' }}>
                <div className="one-line" title={described(c)}>
                  {described(c) ?? <span className="dim">not shared ({row.tier} tier)</span>}
                </div>
              </td>
              <td>
                {c.status === 'ok' ? (
                  <span className="dim">ok</span>
                ) : (
                  <span className={`badge ${c.severity === 'expected' ? 'expected' : 'error'}`}>
                    {c.category ?? c.status}
                  </span>
                )}
              </td>
              <td className="num">{fmtDuration(c.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
