import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { fmtCost, fmtNumber } from '../../ui/format';
import type { ChartTheme } from '../analytics/chart-theme';

/** Model colours, in order of cost. */
const PALETTE = ['#8b9bff', '#f2b45a', '#4fc1a6', '#ff6b7a', '#c792ea', '#7fd1f7', '#e6c07b', '#9aa4b8'];
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

export { PALETTE };
