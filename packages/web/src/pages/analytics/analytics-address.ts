/** The analytics page's filters in its address (`#/analytics?project=api&agent=codex`); defaults left out. */
import type { AgentId } from '@agentdash/core/model';
import { agentParam, pageHash } from '../../ui/page-address';

export interface AnalyticsState {
  readonly project: string;
  readonly agent: AgentId | '';
}

/** The state an address's query says; what it does not say, or says wrong, is the default (no filter). */
export function analyticsStateOf(query: string): AnalyticsState {
  const params = new URLSearchParams(query);
  return { project: params.get('project') ?? '', agent: agentParam(params) };
}

/** The page's address for a state: `#/analytics` without filters. */
export function analyticsHash(state: AnalyticsState): string {
  const params = new URLSearchParams();
  if (state.project !== '') params.set('project', state.project);
  if (state.agent !== '') params.set('agent', state.agent);
  return pageHash('#/analytics', params);
}
