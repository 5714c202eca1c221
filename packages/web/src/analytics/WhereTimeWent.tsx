import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageResponse } from '../data/types';
import { type ChartTheme, MAX_BAR_PX } from '../pages/analytics/chart-theme';
import { fmtDuration } from '../ui/format';
import { labelOf, projectLabels } from '../ui/project-labels';
import { TimeBar } from '../ui/TimeBar';
import { ACTIVE_PARTS, timeDayRows } from './time-days';
import './where-time.css';

type Time = UsageResponse['time'] | undefined;

const TIME_COLOURS: Record<string, string> = { modelMs: '#8b9bff', toolMs: '#f2b45a', userMs: '#4fc1a6' };

/**
 * Main-thread time per project (the first 12, by active time: wall less idle, so that a session left open for months
 * does not come first): active time, and the model / tools / you / idle bar of the wall time.
 */
export function TimeByProjectCard({ time, testId }: { readonly time: Time; readonly testId: string }) {
  const labels = projectLabels((time?.byProject ?? []).map((p) => p.project));
  return (
    <div className="card" data-testid={testId}>
      <h2>
        Where the time went, by project
        <span className="chart-hint">
          main threads · by active time (idle left out) · the bar is the whole wall time
        </span>
      </h2>
      <table className="table compact time-projects" data-testid="time-projects-table">
        <thead>
          <tr>
            <th className="tp-path">Project</th>
            <th className="num tp-time">Active</th>
            <th className="tp-bar">Model · tools · you · idle</th>
          </tr>
        </thead>
        <tbody>
          {(time?.byProject ?? []).slice(0, 12).map((p) => (
            <tr key={p.project}>
              <td className="tp-path" title={p.project}>
                <span className="mono one-line" style={{ fontSize: 12 }}>
                  {labelOf(labels, p.project)}
                </span>
                <span className="tp-stacked">
                  <TimeBar time={p} width="100%" />
                </span>
              </td>
              <td className="num tp-time" title={`${fmtDuration(p.wallMs)} wall`}>
                {fmtDuration(p.wallMs - p.idleMs)}
              </td>
              <td className="tp-bar">
                <TimeBar time={p} width="100%" />
              </td>
            </tr>
          ))}
          {time && time.byProject.length === 0 && (
            <tr>
              <td className="dim" colSpan={3}>
                No timed sessions.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Main-thread active hours per day (the browser's days; weeks or months over a long span), stacked by model, tools
 * and you, a bar for every day from the first to the last (`timeDayRows`).
 */
export function TimeByDayCard({
  theme,
  time,
  testId,
  hint,
}: {
  readonly theme: ChartTheme;
  readonly time: Time;
  readonly testId: string;
  readonly hint: string;
}) {
  const { C, tooltipStyle } = theme;
  const { rows: days, unit } = timeDayRows(time?.byDay ?? []);
  return (
    <div className="card" data-testid={testId}>
      <h2>
        Where the time went, by {unit}
        <span className="chart-hint">
          {hint}
          {unit === 'day' ? '' : ` · each ${unit} from its first day`}
        </span>
      </h2>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart aria-label={`Where the time went, by ${unit}`} data={days} margin={{ top: 12, left: 8, right: 16 }}>
          <CartesianGrid vertical={false} stroke={C.grid} />
          <XAxis dataKey="date" stroke={C.text} tickLine={false} axisLine={false} />
          <YAxis stroke={C.text} tickLine={false} axisLine={false} width={40} />
          <Tooltip {...tooltipStyle} formatter={(v, name) => [fmtDuration(Number(v) * 3_600_000), String(name)]} />
          <Legend {...theme.legendStyle} />
          {ACTIVE_PARTS.map((p) => (
            <Bar
              key={p.key}
              dataKey={p.key}
              name={p.label}
              stackId="t"
              fill={TIME_COLOURS[p.key]}
              isAnimationActive={false}
              maxBarSize={MAX_BAR_PX}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
