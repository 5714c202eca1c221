import { plural } from '@agentdash/core/present';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { StatsResponse } from '../../data/types';
import { outcomeStack } from '../../ui/format';
import { emptyNote, type LoadState } from '../../ui/load-state';
import { labelOf, projectLabels } from '../../ui/project-labels';
import type { DrillQuery } from './analytics-address';
import { GRAINS } from './bucket-range';
import { OpenableBarChart } from './chart-enter';
import { type ChartTheme, categoryAxis, MAX_BAR_PX, payloadOf } from './chart-theme';
import type { ToolStat } from './use-analytics';

/** How long calls take: all tools or one. */
export function DurationChart({
  theme,
  stats,
  tools,
  state,
}: {
  theme: ChartTheme;
  stats: StatsResponse | undefined;
  tools: readonly ToolStat[];
  readonly state: LoadState;
}) {
  const { C, tooltipStyle } = theme;
  const [durationTool, setDurationTool] = useState('');
  const buckets = (durationTool ? stats?.durationsByTool[durationTool] : stats?.durations) ?? [];
  return (
    <div className="card" data-testid="chart-durations">
      <div className="row" style={{ justifyContent: 'space-between', marginBottom: 12 }}>
        <h2 style={{ margin: 0 }}>Duration distribution</h2>
        <select
          className="select"
          value={durationTool}
          onChange={(e) => setDurationTool(e.target.value)}
          aria-label="Tool"
          data-testid="duration-tool"
        >
          <option value="">All tools</option>
          {tools.map((t) => (
            <option key={t.tool} value={t.tool}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      {buckets.every((b) => b.count === 0) ? (
        <div className="empty">{emptyNote(state, 'No call with a duration.')}</div>
      ) : (
        <ResponsiveContainer width="100%" height={200}>
          <BarChart aria-label="Duration distribution" data={buckets} margin={{ top: 12, right: 8 }}>
            <CartesianGrid vertical={false} stroke={C.grid} />
            <XAxis dataKey="label" stroke={C.text} tickLine={false} axisLine={false} />
            <YAxis stroke={C.text} tickLine={false} axisLine={false} allowDecimals={false} />
            <Tooltip {...tooltipStyle} />
            <Bar dataKey="count" name="calls" fill={C.calls} radius={[4, 4, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}

/** Calls over time, ok, errors and expected stacked. */
export function TimeChart({
  theme,
  stats,
  timeRows,
  untimed = 0,
  state,
}: {
  theme: ChartTheme;
  stats: StatsResponse | undefined;
  timeRows: readonly (StatsResponse['days'][number] & { okCalls: number; realErrors: number; label: string })[];
  /** Calls without a time, not drawn. */
  untimed?: number;
  readonly state: LoadState;
}) {
  const { C, tooltipStyle } = theme;
  return (
    <div className="card wide" data-testid="chart-time">
      <h2>
        Over time
        <span className="chart-hint">
          per {GRAINS[stats?.granularity ?? 'day'].hint}, your time zone
          {untimed > 0 && ` · ${plural(untimed, 'call')} without a time not drawn`}
        </span>
      </h2>
      {timeRows.every((row) => row.calls === 0) ? (
        <div className="empty">{emptyNote(state, untimed > 0 ? 'No call with a time.' : 'No tool calls.')}</div>
      ) : (
        <ResponsiveContainer width="100%" height={220}>
          <BarChart aria-label="Calls over time" data={timeRows} margin={{ top: 12, right: 8 }}>
            <CartesianGrid vertical={false} stroke={C.grid} />
            <XAxis dataKey="label" stroke={C.text} tickLine={false} axisLine={false} minTickGap={24} />
            <YAxis stroke={C.text} tickLine={false} axisLine={false} allowDecimals={false} />
            <Tooltip {...tooltipStyle} />
            <Legend {...theme.legendStyle} />
            <Bar dataKey="okCalls" name="ok" stackId="t" fill={C.ok} maxBarSize={MAX_BAR_PX} />
            <Bar dataKey="realErrors" name="errors" stackId="t" fill={C.err} maxBarSize={MAX_BAR_PX} />
            <Bar
              dataKey="expectedErrors"
              name="expected"
              stackId="t"
              fill={C.exp}
              radius={[4, 4, 0, 0]}
              maxBarSize={MAX_BAR_PX}
            />
          </BarChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}

/** Calls per project; a bar opens the project's failing calls. */
export function ProjectChart({
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
  const labels = projectLabels((stats?.projects ?? []).map((p) => p.project));
  return (
    <div className="card wide" data-testid="chart-projects">
      <h2>
        Per project<span className="chart-hint">a bar (click, Enter) opens its failing calls</span>
      </h2>
      {(stats?.projects ?? []).every((p) => p.calls === 0) ? (
        <div className="empty">{emptyNote(state, 'No tool calls.')}</div>
      ) : (
        <OpenableBarChart<{ project: string }>
          open={(p) => setDrill({ project: p.project }, labelOf(labels, p.project))}
          height={Math.max(200, (stats?.projects.length ?? 0) * 26 + 40)}
          aria-label="Calls per project"
          data={(stats?.projects ?? []).map((p) => ({
            ...p,
            // a label of its own for each project (two `…/entireio/cli` were one category of the chart)
            name: labelOf(labels, p.project),
            ...outcomeStack(p),
          }))}
          layout="vertical"
          margin={{ left: 8, right: 16 }}
        >
          <CartesianGrid horizontal={false} stroke={C.grid} />
          <XAxis type="number" stroke={C.text} tickLine={false} axisLine={false} />
          <YAxis {...categoryAxis(C, 'name', 170, 'start')} />
          <Tooltip {...tooltipStyle} />
          {[
            ['okCalls', 'ok', C.ok],
            ['realErrors', 'errors', C.err],
            ['expectedErrors', 'expected', C.exp],
          ].map(([key, name, fill]) => (
            <Bar
              key={key}
              dataKey={key as string}
              name={name as string}
              stackId="p"
              fill={fill as string}
              onClick={(d) => {
                const p = payloadOf<{ project: string }>(d);
                if (p) setDrill({ project: p.project }, labelOf(labels, p.project));
              }}
            />
          ))}
        </OpenableBarChart>
      )}
    </div>
  );
}
