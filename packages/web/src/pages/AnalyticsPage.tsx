import type { AgentId } from '@agentdash/core/model';
import { useState } from 'react';
import { TimeSpent } from '../analytics/TimeSpent';
import { useFacets } from '../data/use-facets';
import { MeasuredToolsNote } from '../telemetry/MeasuredToolsNote';
import { AgentStatsTable } from '../ui/AgentBreakdown';
import { AgentFilter } from '../ui/AgentFilter';
import { loadStateOf } from '../ui/load-state';
import { ProjectFilter } from '../ui/ProjectFilter';
import { useAddress } from '../ui/page-address';
import { AnalyticsCards } from './analytics/AnalyticsCards';
import { analyticsHash, analyticsStateOf, type DrillQuery, drillTitle } from './analytics/analytics-address';
import { useChartTheme } from './analytics/chart-theme';
import { DrillPanel } from './analytics/DrillPanel';
import { DurationChart, ProjectChart, TimeChart } from './analytics/TimeCharts';
import { CallsPerTool, CategoryChart, ErrorRateChart } from './analytics/ToolCharts';
import { ToolTable } from './analytics/ToolTable';
import { type Drill, useAnalytics } from './analytics/use-analytics';

/** `query`: the address's query, which holds the page's filters (a reload or a shared link keeps them). */
export function AnalyticsPage({ query }: { readonly query: string }) {
  const [initial] = useState(() => analyticsStateOf(query));
  const [project, setProject] = useState(initial.project);
  const [agent, setAgent] = useState<AgentId | ''>(initial.agent);
  const facets = useFacets();
  // The drill-down open: from the address (a link to it), or a bar or label clicked, which adds a history entry, so
  // that Back closes it (its hashchange starts the page again from the address, without it).
  const [drill, setDrill] = useState<Drill | undefined>(() => (initial.drill ? drillOf(initial.drill) : undefined));
  useAddress(analyticsHash({ project, agent, drill: drill?.asked }));
  const openDrill = (asked: DrillQuery, label?: string) => {
    window.history.pushState(window.history.state, '', analyticsHash({ project, agent, drill: asked }));
    setDrill(drillOf(asked, label));
  };
  // Close lets it go from the address in place (going back would start the page again, and lose the focus Close
  // gives back to what opened it)
  const closeDrill = () => setDrill(undefined);
  const { stats, rows, error, tools, byRate, fewCalls, topTools, timeRows, untimed } = useAnalytics(
    project,
    drill,
    agent,
  );
  const theme = useChartTheme();
  const state = loadStateOf(stats, error);
  const drillTool = (t: { tool: string } | undefined) => t && openDrill({ tool: t.tool });
  const chartH = Math.max(220, topTools.length * 26 + 40);

  return (
    <div className="page" data-testid="analytics">
      <div className="page-head">
        <div>
          <h1 className="page-title">Tool analytics</h1>
          <div className="page-sub">
            How tools are used, how often they fail, and how long they take. Click a bar or a tool's name to see the
            failing calls.
          </div>
        </div>
        <div className="row">
          <ProjectFilter value={project} onChange={setProject} projects={facets?.projects} />
          <AgentFilter value={agent} onChange={setAgent} present={facets?.agents} />
        </div>
      </div>
      {error && <div className="err-msg">Could not load statistics: {error}</div>}
      <AnalyticsCards totals={stats?.totals} tools={tools} />
      <MeasuredToolsNote measured={stats?.measured} />
      <div className="grid-2">
        <CallsPerTool
          theme={theme}
          drillTool={drillTool}
          tools={tools}
          topTools={topTools}
          chartH={chartH}
          state={state}
        />
        <ErrorRateChart
          theme={theme}
          drillTool={drillTool}
          byRate={byRate}
          fewCalls={fewCalls}
          chartH={chartH}
          state={state}
        />
        <CategoryChart theme={theme} stats={stats} setDrill={openDrill} state={state} />
        <DurationChart theme={theme} stats={stats} tools={tools} state={state} />
        <TimeChart theme={theme} stats={stats} timeRows={timeRows} untimed={untimed} state={state} />
        <ProjectChart theme={theme} stats={stats} setDrill={openDrill} state={state} />
      </div>
      <ToolTable tools={tools} drillTool={drillTool} />
      <AgentStatsTable rows={stats?.agents ?? []} />
      <TimeSpent project={project} />
      {drill && <DrillPanel drill={drill} rows={rows} onClose={closeDrill} />}
    </div>
  );
}

/** The drill-down of what was asked: its failing calls, titled (`label`: a project's shown name, when known). */
function drillOf(asked: DrillQuery, label?: string): Drill {
  return {
    title: drillTitle(asked, label === undefined ? undefined : () => label),
    query: { ...asked, status: 'error' },
    asked,
  };
}
