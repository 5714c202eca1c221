import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { StatsResponse } from '../../data/types';
import type { LoadState } from '../../ui/load-state';
import { AnalyticsCards } from './AnalyticsCards';
import { useChartTheme } from './chart-theme';
import { DurationChart, ProjectChart, TimeChart } from './TimeCharts';
import { CallsPerTool } from './ToolCharts';

/** A scope with sessions and no tool call at all: every figure zero, as the server answers it. */
const none = {
  granularity: 'day',
  tools: [],
  days: [],
  projects: [{ project: '/home/user/proj', sessions: 1, calls: 0, errors: 0, expectedErrors: 0 }],
  durations: [
    { label: '< 1 s', maxMs: 1000, count: 0 },
    { label: '≥ 1 s', maxMs: null, count: 0 },
  ],
  durationsByTool: {},
  categories: [],
} as unknown as StatsResponse;

/** The four charts of calls, as the Analytics page draws them, with nothing to draw. */
function Charts({
  stats,
  state,
  untimed = 0,
}: {
  stats: StatsResponse | undefined;
  state: LoadState;
  untimed?: number;
}) {
  const theme = useChartTheme();
  return (
    <>
      <CallsPerTool theme={theme} drillTool={() => {}} tools={[]} topTools={[]} chartH={220} state={state} />
      <DurationChart theme={theme} stats={stats} tools={[]} state={state} />
      <TimeChart theme={theme} stats={stats} timeRows={[]} untimed={untimed} state={state} />
      <ProjectChart theme={theme} stats={stats} setDrill={() => {}} state={state} />
    </>
  );
}

const notes = (html: string) => [...html.matchAll(/<div class="empty">(.*?)<\/div>/g)].map((m) => m[1]);

describe('the Analytics charts of calls with none to draw', () => {
  it('say there are none, where they drew empty axes', () => {
    expect(notes(renderToStaticMarkup(<Charts stats={none} state="loaded" />))).toEqual([
      'No tool calls.',
      'No call with a duration.',
      'No tool calls.',
      'No tool calls.',
    ]);
  });

  it('say that calls without a time are not drawn over time', () => {
    const html = renderToStaticMarkup(<Charts stats={none} state="loaded" untimed={3} />);
    expect(notes(html)[2]).toBe('No call with a time.');
  });

  it('say they are loading, or not loaded, instead of that there are none', () => {
    expect(notes(renderToStaticMarkup(<Charts stats={undefined} state="loading" />))).toEqual(
      Array(4).fill('Loading…'),
    );
    expect(notes(renderToStaticMarkup(<Charts stats={undefined} state="failed" />))).toEqual(
      Array(4).fill('Not loaded.'),
    );
  });
});

describe("the Analytics page's cards", () => {
  const totals = (calls: number, errors: number, sessions: number) => ({ calls, errors, expectedErrors: 0, sessions });
  const errorsCard = (html: string) => /Errors<\/div><div class="metric-value"( style="[^"]*")?>(\d+)</.exec(html);

  it('count the sessions in the singular for one', () => {
    expect(renderToStaticMarkup(<AnalyticsCards totals={totals(0, 0, 1)} tools={[]} />)).toContain('across 1 session<');
    expect(renderToStaticMarkup(<AnalyticsCards totals={totals(5, 0, 2)} tools={[]} />)).toContain(
      'across 2 sessions<',
    );
  });

  it('draw the errors in red only when there are some', () => {
    expect(errorsCard(renderToStaticMarkup(<AnalyticsCards totals={totals(5, 0, 1)} tools={[]} />))?.slice(1)).toEqual([
      undefined,
      '0',
    ]);
    expect(errorsCard(renderToStaticMarkup(<AnalyticsCards totals={totals(5, 2, 1)} tools={[]} />))?.slice(1)).toEqual([
      ' style="color:var(--err)"',
      '2',
    ]);
  });
});
