import type { AgentId } from '@agentdash/core/model';
import { useState } from 'react';
import { TimeByDayCard, TimeByProjectCard } from '../analytics/WhereTimeWent';
import { blocksOnlyOf, useAgents } from '../data/agents';
import { useServerFacts } from '../data/server-facts';
import { useFacets } from '../data/use-facets';
import { MeasuredTimeNote } from '../telemetry/MeasuredTimeNote';
import { AgentFilter } from '../ui/AgentFilter';
import { loadStateOf } from '../ui/load-state';
import { ProjectFilter } from '../ui/ProjectFilter';
import { useAddress } from '../ui/page-address';
import { useChartTheme } from './analytics/chart-theme';
import { CostNotes } from './usage/CostNotes';
import { UsageCards } from './usage/UsageCards';
import { DailyChart, ProjectsChart } from './usage/UsageCharts';
import { AgentsTable, ModelsTable, PeopleTable, TopSessions, UsageBlocks } from './usage/UsageTables';
import { usageHash, usageStateOf } from './usage/usage-address';
import { type Metric, RANGES, type RangeKey, useUsage } from './usage/use-usage';

/** `query`: the address's query, which holds the page's period, filters and metric (a reload keeps them). */
export function UsagePage({ query }: { readonly query: string }) {
  const [initial] = useState(() => usageStateOf(query));
  const [project, setProject] = useState(initial.project);
  const [range, setRange] = useState<RangeKey>(initial.range);
  const [metric, setMetric] = useState<Metric>(initial.metric);
  const [agent, setAgent] = useState<AgentId | ''>(initial.agent);
  const facets = useFacets();
  useAddress(usageHash({ range, project, agent, metric }));
  const { usage, error, models, unpriced, colorOf, daily, unit, projects } = useUsage(project, range, metric, agent);
  const theme = useChartTheme();
  const facts = useServerFacts();
  // another agent's responses make no 5-hour block: its cards say so instead of an empty "no active block"
  const blocksOnly = blocksOnlyOf(useAgents(), agent);
  const state = loadStateOf(usage, error);
  const t = usage?.totals;

  return (
    <div className="page" data-testid="usage-page">
      <div className="page-head">
        <div>
          <h1 className="page-title">Usage and cost</h1>
          <div className="page-sub">Each API response counted once. Days in your time zone.</div>
        </div>
        <div className="row">
          <select
            className="select"
            value={range}
            onChange={(e) => setRange(e.target.value as RangeKey)}
            aria-label="Period"
          >
            {RANGES.map((r) => (
              <option key={r.key} value={r.key}>
                {r.label}
              </option>
            ))}
          </select>
          <ProjectFilter value={project} onChange={setProject} projects={facets?.projects} />
          <AgentFilter value={agent} onChange={setAgent} present={facets?.agents} />
          <fieldset className="seg" aria-label="Metric">
            <button
              type="button"
              className={`btn small ${metric === 'cost' ? 'primary' : ''}`}
              aria-pressed={metric === 'cost'}
              onClick={() => setMetric('cost')}
            >
              Cost
            </button>
            <button
              type="button"
              className={`btn small ${metric === 'tokens' ? 'primary' : ''}`}
              aria-pressed={metric === 'tokens'}
              onClick={() => setMetric('tokens')}
            >
              Tokens
            </button>
          </fieldset>
        </div>
      </div>
      {error && <div className="err-msg">Could not load usage: {error}</div>}
      <UsageCards usage={usage} metric={metric} blocksOnly={blocksOnly} />
      {/* under the totals, a line from the first paint on: in the heading, the price table's name arriving made it
          two lines and wrapped the filters (the whole page moved down) */}
      <div className="page-sub prices-note" data-testid="prices-note">
        <span>Priced with {usage ? `${usage.prices.source} (${usage.prices.date})` : '…'}.</span>
        <CostNotes totals={t} />
      </div>
      <DailyChart
        theme={theme}
        metric={metric}
        daily={daily}
        unit={unit}
        models={models}
        unpriced={unpriced}
        colorOf={colorOf}
        state={state}
      />
      {/* under the chart: shown only once the data says there are two agents or people, they moved the chart down
          (a layout shift of the first screen) */}
      <AgentsTable usage={usage} />
      <PeopleTable usage={usage} />
      <div className="grid-2">
        <ProjectsChart theme={theme} metric={metric} projects={projects} state={state} />
        <ModelsTable usage={usage} colorOf={colorOf} metric={metric} />
      </div>
      <div className="grid-2">
        <TopSessions usage={usage} metric={metric} />
        <UsageBlocks usage={usage} team={facts?.mode !== 'local'} blocksOnly={blocksOnly} />
      </div>
      {usage && <MeasuredTimeNote measured={usage.time.measured} />}
      <div className="grid-2">
        <TimeByProjectCard time={usage?.time} testId="usage-time-projects" />
        <TimeByDayCard
          theme={theme}
          time={usage?.time}
          testId="chart-usage-time-days"
          hint="active hours (idle left out)"
        />
      </div>
    </div>
  );
}
