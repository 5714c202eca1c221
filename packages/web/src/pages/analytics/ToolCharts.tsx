import type { ErrorCategory, ErrorSeverity } from '@agentdash/core/model';
import { Bar, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import type { StatsResponse } from '../../data/types';
import { fitLabel } from '../../ui/axis-label';
import { emptyNote, type LoadState } from '../../ui/load-state';
import type { DrillQuery } from './analytics-address';
import { OpenableBarChart } from './chart-enter';
import { type ChartTheme, categoryAxis, payloadOf } from './chart-theme';
import { categoryRows } from './error-categories';
import { MIN_RANKED_CALLS } from './error-rank';
import { TOP, type ToolStat } from './use-analytics';

interface Props {
  readonly theme: ChartTheme;
  readonly drillTool: (t: { tool: string } | undefined) => void;
}

/** Calls per tool: ok, errors and expected errors stacked; a bar opens the tool's failing calls. */
export function CallsPerTool({
  theme,
  drillTool,
  tools,
  topTools,
  chartH,
  state,
}: Props & {
  tools: readonly ToolStat[];
  topTools: readonly ToolStat[];
  chartH: number;
  readonly state: LoadState;
}) {
  const { C, tooltipStyle } = theme;
  return (
    <div className="card" data-testid="chart-tools">
      <h2>
        Calls per tool
        <span className="chart-hint">
          {tools.length > TOP ? `top ${TOP} of ${tools.length} · ` : ''}ok · errors · expected
        </span>
      </h2>
      {topTools.length === 0 ? (
        <div className="empty">{emptyNote(state, 'No tool calls.')}</div>
      ) : (
        <OpenableBarChart
          open={drillTool}
          height={chartH}
          aria-label="Calls per tool"
          data={topTools}
          layout="vertical"
          margin={{ left: 8, right: 16 }}
        >
          <CartesianGrid horizontal={false} stroke={C.grid} />
          <XAxis type="number" stroke={C.text} tickLine={false} axisLine={false} />
          {/* a tool's name opens its failing calls, as its bar does */}
          <YAxis
            {...categoryAxis(C, 'name', 150, 'end')}
            onClick={(_tick: unknown, i: number) => drillTool(topTools[i])}
          />
          <Tooltip {...tooltipStyle} />
          <Bar dataKey="okCalls" name="ok" stackId="a" fill={C.ok} onClick={(d) => drillTool(payloadOf(d))} />
          <Bar dataKey="realErrors" name="errors" stackId="a" fill={C.err} onClick={(d) => drillTool(payloadOf(d))} />
          <Bar
            dataKey="expectedErrors"
            name="expected"
            stackId="a"
            fill={C.exp}
            radius={[0, 4, 4, 0]}
            onClick={(d) => drillTool(payloadOf(d))}
          />
        </OpenableBarChart>
      )}
    </div>
  );
}

/**
 * The tools that fail most often, by rate (errors not expected over calls), among those of `MIN_RANKED_CALLS` calls
 * or more (error-rank.ts): the bars in the order of their length.
 */
export function ErrorRateChart({
  theme,
  drillTool,
  byRate,
  fewCalls = 0,
  chartH,
  state,
}: Props & {
  byRate: readonly (ToolStat & { readonly rateLabel: string })[];
  /** The tools with errors and too few calls to be ranked. */
  fewCalls?: number;
  chartH: number;
  readonly state: LoadState;
}) {
  const { C, tooltipStyle } = theme;
  return (
    <div className="card" data-testid="chart-error-rate">
      <h2>
        Error rate by tool
        <span className="chart-hint" data-testid="error-rate-hint">
          {byRate.length > 0 &&
            `highest ${byRate.length} · errors/calls, expected ones apart · a bar (click, Enter) opens them`}
          {fewCalls > 0 &&
            `${byRate.length > 0 ? ' · ' : ''}${fewCalls} ${fewCalls === 1 ? 'tool' : 'tools'} of fewer than ${MIN_RANKED_CALLS} calls not ranked`}
        </span>
      </h2>
      {byRate.length === 0 ? (
        <div className="empty">
          {emptyNote(state, fewCalls > 0 ? 'No tool with calls enough to rank.' : 'No errors.')}
        </div>
      ) : (
        <OpenableBarChart
          open={drillTool}
          height={chartH}
          aria-label="Error rate by tool"
          data={byRate}
          layout="vertical"
          margin={{ left: 8, right: 24 }}
        >
          <CartesianGrid horizontal={false} stroke={C.grid} />
          <XAxis type="number" unit="%" stroke={C.text} tickLine={false} axisLine={false} domain={[0, 100]} />
          <YAxis
            type="category"
            dataKey="rateLabel"
            width={190}
            tickFormatter={(v: unknown, i: number) => {
              // The name loses its end, never its calls.
              const t = byRate[i];
              const calls = t ? ` (${t.realErrors}/${t.calls})` : '';
              return t ? fitLabel(t.name, 190 - calls.length * 7, 'end') + calls : String(v);
            }}
            stroke={C.text}
            tickLine={false}
            axisLine={false}
            interval={0}
            onClick={(_tick: unknown, i: number) => drillTool(byRate[i])}
          />
          <Tooltip
            {...tooltipStyle}
            formatter={(v, _name, item) => {
              const t = item.payload as ToolStat;
              const expected = t.expectedErrors > 0 ? `; ${t.expectedErrors} expected apart` : '';
              return [`${v}% (${t.realErrors} of ${t.calls} calls${expected})`, 'error rate'];
            }}
          />
          <Bar dataKey="ratePct" name="error rate" radius={[0, 4, 4, 0]} onClick={(d) => drillTool(payloadOf(d))}>
            {byRate.map((t) => (
              <Cell key={t.tool} fill={C.err} data-testid={`rate-bar-${t.tool}`} />
            ))}
          </Bar>
        </OpenableBarChart>
      )}
    </div>
  );
}

/** Errors by category, real and expected stacked (expected grey); a bar opens the calls of its part. */
export function CategoryChart({
  theme,
  stats,
  setDrill,
  state,
}: {
  theme: ChartTheme;
  stats: StatsResponse | undefined;
  setDrill: (d: DrillQuery, label?: string) => void;
  readonly state: LoadState;
}) {
  const { C, tooltipStyle } = theme;
  const rows = categoryRows(stats?.categories ?? []);
  const drill = (severity: ErrorSeverity) => (d: unknown) => {
    const p = payloadOf<{ category: ErrorCategory }>(d);
    if (p) setDrill({ category: p.category, severity });
  };
  return (
    <div className="card" data-testid="chart-categories">
      <h2>
        Error categories<span className="chart-hint">errors · expected</span>
      </h2>
      {rows.length === 0 ? (
        <div className="empty">{emptyNote(state, 'No errors.')}</div>
      ) : (
        // Enter opens the category's errors of both kinds (a click opens the part it lands on)
        <OpenableBarChart<{ category: ErrorCategory }>
          open={(row) => setDrill({ category: row.category })}
          height={Math.max(200, rows.length * 28 + 40)}
          aria-label="Error categories"
          data={rows}
          layout="vertical"
          margin={{ left: 8, right: 16 }}
        >
          <CartesianGrid horizontal={false} stroke={C.grid} />
          <XAxis type="number" stroke={C.text} tickLine={false} axisLine={false} allowDecimals={false} />
          <YAxis {...categoryAxis(C, 'category', 150, 'end')} />
          <Tooltip {...tooltipStyle} />
          <Bar dataKey="real" name="errors" stackId="c" fill={C.err} onClick={drill('error')} />
          <Bar
            dataKey="expected"
            name="expected"
            stackId="c"
            fill={C.exp}
            radius={[0, 4, 4, 0]}
            onClick={drill('expected')}
          />
        </OpenableBarChart>
      )}
    </div>
  );
}
