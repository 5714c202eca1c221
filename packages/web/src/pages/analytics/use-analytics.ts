import type { CallsQuery } from '@agentdash/api';
import type { AgentId } from '@agentdash/core/model';
import { messageOf } from '@agentdash/core/present';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../../data/client';
import type { CallRowDto, StatsResponse } from '../../data/types';
import { useLiveAnswer } from '../../data/use-live-answer';
import { ANALYTICS_RELOAD_MS, useLiveTick } from '../../data/use-live-tick';
import { outcomeStack } from '../../ui/format';
import type { DrillQuery } from './analytics-address';
import { axisLabelOf, bucketRange, untimedCalls } from './bucket-range';
import { rankByErrorRate } from './error-rank';
import { toolRows } from './tool-rows';

/** The most calls a drill-down asks for. */
export const DRILL_LIMIT = 300;

export const TOP = 14;

export interface Drill {
  readonly title: string;
  readonly query: Pick<CallsQuery, 'tool' | 'status' | 'category' | 'severity' | 'project'>;
  /** What was asked, as the address holds it. */
  readonly asked: DrillQuery;
}

export type ToolStat = ReturnType<typeof useAnalytics>['tools'][number];

/** The statistics of a project (or all), reloaded on live changes, and the calls of the open drill-down. */
export function useAnalytics(project: string, drill: Drill | undefined, agent: AgentId | '' = '') {
  const [stats, setStats] = useState<StatsResponse | undefined>();
  const [rows, setRows] = useState<readonly CallRowDto[] | undefined>();
  const [error, setError] = useState<string | undefined>();

  const tick = useLiveTick(ANALYTICS_RELOAD_MS);
  useLiveAnswer(JSON.stringify([project, agent]), tick, {
    ask: (signal) => api.stats({ project, agent: agent || undefined }, signal),
    take: (s) => {
      setStats(s);
      setError(undefined);
    },
    fail: (e) => setError(messageOf(e)),
  });

  useEffect(() => {
    if (!drill) return;
    setRows(undefined);
    api
      .calls({ ...drill.query, project: drill.query.project ?? (project || undefined), limit: DRILL_LIMIT })
      .then(setRows)
      .catch(() => setRows([]));
  }, [drill, project]);

  const tools = useMemo(() => toolRows(stats?.tools ?? []), [stats]);
  // Ranked by rate among the tools of calls enough (a failing call of one does not come first), its calls in its label.
  const { byRate, fewCalls } = useMemo(() => {
    const { ranked, fewCalls } = rankByErrorRate(tools, TOP);
    return { byRate: ranked.map((t) => ({ ...t, rateLabel: `${t.name} (${t.realErrors}/${t.calls})` })), fewCalls };
  }, [tools]);
  const topTools = useMemo(() => tools.slice(0, TOP), [tools]);
  // Every bucket from the first to the last, the empty ones too, so that a bar's place on the axis says its time.
  const timeRows = useMemo(
    () =>
      bucketRange(stats?.days ?? [], stats?.granularity ?? 'day').map((d) => ({
        ...d,
        ...outcomeStack(d),
        label: axisLabelOf(d.day, stats?.granularity ?? 'day'),
      })),
    [stats],
  );

  const untimed = useMemo(() => untimedCalls(stats?.days ?? []), [stats]);

  return { stats, rows, error, tools, byRate, fewCalls, topTools, timeRows, untimed };
}
