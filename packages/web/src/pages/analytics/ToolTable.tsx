import { fmtDuration, fmtNumber, fmtPercent, realErrorRate } from '../../ui/format';
import type { ToolStat } from './use-analytics';

/** Durations per tool: calls, errors, rate and percentiles; a row with errors opens its failing calls. */
export function ToolTable({ tools, drillTool }: { tools: readonly ToolStat[]; drillTool: (t: ToolStat) => void }) {
  return (
    <div className="card table-scrolls" style={{ marginBottom: 14 }} data-testid="tool-table">
      <h2>Durations per tool</h2>
      <table className="table compact" style={{ background: 'transparent' }}>
        <thead>
          <tr>
            <th>Tool</th>
            <th className="num">Calls</th>
            <th className="num">Errors</th>
            <th className="num">Error rate</th>
            <th className="num">p50</th>
            <th className="num">p95</th>
            <th className="num">max</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((t) => (
            <tr key={t.tool} onClick={() => t.errors > 0 && drillTool(t)} data-testid="tool-row">
              <td className="mono">{t.name}</td>
              <td className="num">{fmtNumber(t.calls)}</td>
              <td className="num">
                <ErrorCounts tool={t} />
              </td>
              {/* of the errors not expected, as the cards above count them */}
              <td className="num">{fmtPercent(realErrorRate(t))}</td>
              <td className="num">{fmtDuration(t.p50)}</td>
              <td className="num">{fmtDuration(t.p95)}</td>
              <td className="num">{fmtDuration(t.max)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A tool's errors, and expected ones apart. With errors, a button the keyboard reaches (the row's click opened the
 * failing calls for the mouse only): Enter clicks it, and the click is the row's.
 */
function ErrorCounts({ tool: t }: { tool: ToolStat }) {
  const counts = (
    <>
      {t.realErrors > 0 ? <span className="err-count">{t.realErrors}</span> : <span className="dim">0</span>}
      {t.expectedErrors > 0 && <span className="exp-count"> +{t.expectedErrors}</span>}
    </>
  );
  if (t.errors === 0) return counts;
  return (
    <button
      type="button"
      className="link-btn drill-open"
      aria-label={`${t.name}: ${t.errors} failing ${t.errors === 1 ? 'call' : 'calls'}, show them`}
      data-testid="tool-drill"
    >
      {counts}
    </button>
  );
}
