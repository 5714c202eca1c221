import { useMemo } from 'react';
import { fitLabel } from '../../ui/axis-label';
import { cssColor, useThemeVersion } from '../../ui/theme';

/** Chart colours from the theme's custom properties (recharts needs plain values), re-read on theme changes. */
export function useChartTheme() {
  const version = useThemeVersion();
  // biome-ignore lint/correctness/useExhaustiveDependencies: version re-reads the colours
  return useMemo(() => {
    const panel = cssColor('--panel-2', '#1b202b');
    return {
      C: {
        calls: '#8b9bff',
        ok: '#4f6bd1',
        err: cssColor('--err', '#ff6b7a'),
        exp: cssColor('--exp', '#6b7386'),
        grid: cssColor('--chart-grid', '#222836'),
        text: cssColor('--muted', '#737c91'),
      },
      tooltipStyle: {
        contentStyle: {
          background: panel,
          border: `1px solid ${cssColor('--border-2', '#323a4c')}`,
          borderRadius: 8,
          fontSize: 12.5,
        },
        labelStyle: { color: cssColor('--text', '#e6e9f0'), fontWeight: 600 },
        itemStyle: { color: cssColor('--text-2', '#aab1c2') },
      },
      /**
       * A legend's names in the text's colour (its swatch carries the series'): recharts writes them in the series'
       * own colour, light bars' names on white were 1.8–2.6:1.
       */
      legendStyle: {
        wrapperStyle: { fontSize: 12 },
        formatter: (value: unknown) => <span style={{ color: cssColor('--text-2', '#aab1c2') }}>{String(value)}</span>,
      },
    };
  }, [version]);
}

export type ChartTheme = ReturnType<typeof useChartTheme>;

/**
 * The widest a bar of a chart over time may be drawn (CSS px): with a few days, weeks or hours recharts gives each
 * bar its whole band, and one day's usage was a block across the chart.
 */
export const MAX_BAR_PX = 64;

export function payloadOf<T>(data: unknown): T | undefined {
  const d = data as { payload?: T } | undefined;
  return d?.payload;
}

/**
 * The props of a horizontal bar chart's labels axis (recharts' `YAxis`): every bar's label on one line, cut to the
 * axis' width at `cut` (`fitLabel`: a tool's name at its end, a project's path at its start; a merged tool's name
 * lists its aliases, `exec_command (shell, …)`, and wrapped onto the bars above it), the tooltip naming it whole.
 */
export function categoryAxis(C: ChartTheme['C'], dataKey: string, width: number, cut: 'start' | 'end') {
  return {
    type: 'category' as const,
    dataKey,
    width,
    tickFormatter: (v: unknown) => fitLabel(String(v), width, cut),
    stroke: C.text,
    tickLine: false,
    axisLine: false,
    interval: 0,
  };
}
