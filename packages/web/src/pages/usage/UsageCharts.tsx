import { shortModels } from '@agentdash/core/present';
import { Bar, BarChart, CartesianGrid, getNiceTickValues, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { costTickFormat } from '../../ui/axis-label';
import { fmtCost, fmtNumber } from '../../ui/format';
import { emptyNote, type LoadState } from '../../ui/load-state';
import { type ChartTheme, categoryAxis, MAX_BAR_PX } from '../analytics/chart-theme';
import type { BucketUnit } from './day-range';
import { DISTINCT_MODELS, OTHER_MODELS_COLOR } from './model-colors';
import { type DayRow, type ProjectBar, projectValueText } from './use-usage';

interface Props {
  readonly theme: ChartTheme;
  readonly metric: 'cost' | 'tokens';
}
/** A bar's value as its tooltip says it; a cost of null or undefined (a model without a price) is unknown, not $0. */
const valueFormat = (metric: Props['metric']) => (v: unknown) =>
  v === null || v === undefined ? 'unknown' : metric === 'cost' ? fmtCost(Number(v)) : fmtNumber(Number(v));

/**
 * A cost axis from 0 to `max`: the ticks recharts would pick by itself (5 of them), given to it with one format for
 * all of them (`costTickFormat`).
 */
function costAxis(max: number) {
  const ticks = getNiceTickValues([0, max], 5);
  return { ticks, domain: [0, ticks.at(-1) ?? max], tickFormatter: costTickFormat(ticks) };
}

/** The tallest of the days' stacked bars. */
function dayMax(daily: readonly DayRow[], models: readonly string[]): number {
  return Math.max(0, ...daily.map((row) => models.reduce((sum, m) => sum + (Number(row[m]) || 0), 0)));
}

/** The height of the days' chart (its legend below it). */
const CHART_H = 280;

/** Cost (or tokens) per day (per week or month over a long span: a bar for each, gaps included), one colour per model. */
export function DailyChart({
  theme,
  metric,
  daily,
  unit = 'day',
  models,
  unpriced = [],
  colorOf,
  state,
}: Props & {
  daily: readonly DayRow[];
  unit?: BucketUnit;
  /** In the order of the metric shown (`chartModels`); `colorOf` gives each its colour (the models table's too). */
  models: readonly string[];
  /** Of `models`, those without a price in the cost view: no bar, so not in the legend either (their tooltip: unknown). */
  unpriced?: readonly string[];
  colorOf: (model: string) => string;
  readonly state: LoadState;
}) {
  const { C, tooltipStyle } = theme;
  const fmtValue = valueFormat(metric);
  const names = shortModels(models);
  const drawn = models.filter((m) => !unpriced.includes(m));
  const shortModel = (m: string) => names.get(m) ?? m;
  return (
    <div className="card" data-testid="chart-usage-days">
      <h2>
        {metric === 'cost' ? 'Cost' : 'Tokens'} per {unit}
        <span className="chart-hint">
          stacked by model{unit === 'day' ? '' : `; each ${unit} from its first day, those without usage empty`}
        </span>
      </h2>
      {daily.length === 0 ? (
        // while loading, as tall as the chart and a line of its legend: the chart arriving moved nothing below it
        <div className="empty" style={state === 'loading' ? { minHeight: CHART_H + 30 } : undefined}>
          {emptyNote(state, 'No usage.')}
        </div>
      ) : (
        <>
          <ResponsiveContainer width="100%" height={CHART_H}>
            <BarChart
              aria-label={`${metric === 'cost' ? 'Cost' : 'Tokens'} per ${unit}`}
              data={daily}
              margin={{ top: 12, left: 8, right: 16 }}
            >
              <CartesianGrid vertical={false} stroke={C.grid} />
              <XAxis dataKey="date" stroke={C.text} tickLine={false} axisLine={false} />
              <YAxis
                stroke={C.text}
                tickLine={false}
                axisLine={false}
                width={70}
                {...(metric === 'cost'
                  ? costAxis(dayMax(daily, drawn))
                  : { tickFormatter: (v: number) => fmtNumber(v) })}
              />
              {/* filterNull off: a model without a price is listed as unknown, not left out of the day. */}
              <Tooltip
                {...tooltipStyle}
                filterNull={false}
                formatter={(v, name) => [fmtValue(v), shortModel(String(name))]}
              />
              {models.map((m) => (
                <Bar
                  key={m}
                  dataKey={m}
                  stackId="m"
                  fill={colorOf(m)}
                  isAnimationActive={false}
                  maxBarSize={MAX_BAR_PX}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
          {/* Below the chart, not in it: inside its fixed height, the legend of some thirty models took all of a
            phone's chart and left no room for a bar. */}
          <ul className="chart-legend" data-testid="usage-legend">
            {drawn.slice(0, DISTINCT_MODELS).map((m) => (
              <li key={m}>
                <i className="swatch" style={{ background: colorOf(m) }} />
                {shortModel(m)}
              </li>
            ))}
            {drawn.length > DISTINCT_MODELS && (
              <li title={drawn.slice(DISTINCT_MODELS).map(shortModel).join(', ')} data-testid="usage-legend-others">
                <i className="swatch" style={{ background: OTHER_MODELS_COLOR }} />
                {drawn.length - DISTINCT_MODELS} other models
              </li>
            )}
            {unpriced.length > 0 && (
              <li title={unpriced.map(shortModel).join(', ')} data-testid="usage-legend-unpriced">
                {unpriced.length} {unpriced.length === 1 ? 'model' : 'models'} without a price, not drawn
              </li>
            )}
          </ul>
        </>
      )}
    </div>
  );
}

/** Cost (or tokens) per project. */
export function ProjectsChart({
  theme,
  metric,
  projects,
  state,
}: Props & { projects: readonly ProjectBar[]; readonly state: LoadState }) {
  const { C, tooltipStyle } = theme;
  const fmtValue = valueFormat(metric);
  return (
    <div className="card" data-testid="chart-usage-projects">
      <h2>
        {metric === 'cost' ? 'Cost' : 'Tokens'} by project<span className="chart-hint">top 12</span>
      </h2>
      {projects.length === 0 ? (
        <div className="empty">{emptyNote(state, 'No usage.')}</div>
      ) : (
        <ResponsiveContainer width="100%" height={Math.max(160, projects.length * 30 + 40)}>
          <BarChart
            aria-label={`${metric === 'cost' ? 'Cost' : 'Tokens'} by project`}
            data={projects}
            layout="vertical"
            margin={{ left: 8, right: 24 }}
          >
            <CartesianGrid horizontal={false} stroke={C.grid} />
            <XAxis
              type="number"
              stroke={C.text}
              tickLine={false}
              axisLine={false}
              {...(metric === 'cost'
                ? costAxis(Math.max(0, ...projects.map((p) => p.value ?? 0)))
                : { tickFormatter: (v: number) => fmtValue(v) })}
            />
            <YAxis {...categoryAxis(C, 'name', 170, 'start')} />
            <Tooltip
              {...tooltipStyle}
              filterNull={false}
              formatter={(_v, _name, item) => [projectValueText(metric, item.payload as ProjectBar), metric]}
            />
            <Bar dataKey="value" fill="#8b9bff" radius={[0, 4, 4, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}
