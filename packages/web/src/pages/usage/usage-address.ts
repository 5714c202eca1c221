/** The usage page's period, filters and metric in its address (`#/usage?range=30d&metric=tokens`); defaults left out. */
import type { AgentId } from '@agentdash/core/model';
import { agentParam, pageHash } from '../../ui/page-address';
import { type Metric, RANGES, type RangeKey } from './use-usage';

export interface UsageState {
  readonly range: RangeKey;
  readonly project: string;
  readonly agent: AgentId | '';
  readonly metric: Metric;
}

export const USAGE_DEFAULTS: UsageState = { range: 'all', project: '', agent: '', metric: 'cost' };

/** The state an address's query says; what it does not say, or says wrong, is the default. */
export function usageStateOf(query: string): UsageState {
  const params = new URLSearchParams(query);
  const range = RANGES.find((r) => r.key === params.get('range'))?.key ?? USAGE_DEFAULTS.range;
  return {
    range,
    project: params.get('project') ?? '',
    agent: agentParam(params),
    metric: params.get('metric') === 'tokens' ? 'tokens' : 'cost',
  };
}

/** The page's address for a state: `#/usage` in the default one. */
export function usageHash(state: UsageState): string {
  const params = new URLSearchParams();
  if (state.range !== USAGE_DEFAULTS.range) params.set('range', state.range);
  if (state.project !== '') params.set('project', state.project);
  if (state.agent !== '') params.set('agent', state.agent);
  if (state.metric !== USAGE_DEFAULTS.metric) params.set('metric', state.metric);
  return pageHash('#/usage', params);
}
