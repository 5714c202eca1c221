import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageResponse } from '../../data/types';
import { fmtCost, fmtDuration, fmtNumber } from '../../ui/format';
import { TIME_PARTS } from '../../ui/TimeBar';

// Idle time is left out of the days chart: one session left open for weeks would flatten every other day.
const ACTIVE_PARTS = TIME_PARTS.filter((p) => p.key !== 'idleMs');

import type { ChartTheme } from '../analytics/chart-theme';

/** Model colours, in order of cost. */
const PALETTE = ['#8b9bff', '#f2b45a', '#4fc1a6', '#ff6b7a', '#c792ea', '#7fd1f7', '#e6c07b', '#9aa4b8'];
const TIME_COLOURS: Record<string, string> = {
  modelMs: '#8b9bff',
  toolMs: '#f2b45a',
  userMs: '#4fc1a6',
  idleMs: '#3a4154',
};
export const shortModel = (m: string) => m.replace(/^claude-/, '').replace(/-\d{8}$/, '');

interface Props {
  readonly theme: ChartTheme;
  readonly metric: 'cost' | 'tokens';
}
const valueFormat = (metric: Props['metric']) => (v: unknown) =>
  metric === 'cost' ? fmtCost(Number(v)) : fmtNumber(Number(v));

/** Cost (or tokens) per day, one colour per model. */
export function DailyChart({
  theme,
  metric,
  daily,
  models,
}: Props & { daily: readonly Record<string, string | number>[]; models: readonly string[] }) {
  const { C, tooltipStyle } = theme;
  const fmtValue = valueFormat(metric);
  return (
    <div className="card" data-testid="chart-usage-days">
      <h3>
        {metric === 'cost' ? 'Cost' : 'Tokens'} per day<span className="chart-hint">stacked by model</span>
      </h3>
      {daily.length === 0 ? (
        <div className="empty">No usage.</div>
      ) : (
        <ResponsiveContainer width="100%" height={280}>
          <BarChart data={daily} margin={{ left: 8, right: 16 }}>
            <CartesianGrid vertical={false} stroke={C.grid} />
            <XAxis dataKey="date" stroke={C.text} tickLine={false} axisLine={false} />
            <YAxis
              stroke={C.text}
              tickLine={false}
              axisLine={false}
              width={70}
              tickFormatter={(v: number) =>
                metric === 'cost' ? `$${v < 10 ? v.toFixed(2) : Math.round(v)}` : fmtNumber(v)
              }
            />
            <Tooltip {...tooltipStyle} formatter={(v, name) => [fmtValue(v), shortModel(String(name))]} />
            <Legend formatter={(v) => shortModel(String(v))} />
            {models.map((m, i) => (
              <Bar key={m} dataKey={m} stackId="m" fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}

/** Cost (or tokens) per project. */
export function ProjectsChart({
  theme,
  metric,
  projects,
}: Props & { projects: readonly { name: string; value: number }[] }) {
  const { C, tooltipStyle } = theme;
  const fmtValue = valueFormat(metric);
  return (
    <div className="card" data-testid="chart-usage-projects">
      <h3>
        {metric === 'cost' ? 'Cost' : 'Tokens'} by project<span className="chart-hint">top 12</span>
      </h3>
      {projects.length === 0 ? (
        <div className="empty">No usage.</div>
      ) : (
        <ResponsiveContainer width="100%" height={Math.max(160, projects.length * 30 + 40)}>
          <BarChart data={projects} layout="vertical" margin={{ left: 8, right: 24 }}>
            <CartesianGrid horizontal={false} stroke={C.grid} />
            <XAxis
              type="number"
              stroke={C.text}
              tickLine={false}
              axisLine={false}
              tickFormatter={(v: number) => fmtValue(v)}
            />
            <YAxis
              type="category"
              dataKey="name"
              width={170}
              stroke={C.text}
              tickLine={false}
              axisLine={false}
              interval={0}
            />
            <Tooltip {...tooltipStyle} formatter={(v) => [fmtValue(v), metric]} />
            <Bar dataKey="value" fill="#8b9bff" radius={[0, 4, 4, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}

/** Where the main threads' time went, per day. */
export function TimeByDayChart({ theme, usage }: { theme: ChartTheme; usage: UsageResponse | undefined }) {
  const { C, tooltipStyle } = theme;
  return (
    <div className="card" data-testid="chart-usage-time-days">
      <h3>
        Where the time went, by day<span className="chart-hint">active hours (idle left out)</span>
      </h3>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart
          data={(usage?.time.byDay ?? []).map((d) => ({
            date: d.date,
            ...Object.fromEntries(ACTIVE_PARTS.map((p) => [p.key, d[p.key] / 3_600_000])),
          }))}
          margin={{ left: 8, right: 16 }}
        >
          <CartesianGrid vertical={false} stroke={C.grid} />
          <XAxis dataKey="date" stroke={C.text} tickLine={false} axisLine={false} />
          <YAxis stroke={C.text} tickLine={false} axisLine={false} width={40} />
          <Tooltip {...tooltipStyle} formatter={(v, name) => [fmtDuration(Number(v) * 3_600_000), String(name)]} />
          <Legend />
          {ACTIVE_PARTS.map((p) => (
            <Bar
              key={p.key}
              dataKey={p.key}
              name={p.label}
              stackId="t"
              fill={TIME_COLOURS[p.key]}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export { PALETTE };
