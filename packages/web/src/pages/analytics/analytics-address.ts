/**
 * The analytics page's filters and open drill-down in its address (`#/analytics?project=api&agent=codex&tool=Bash`);
 * defaults left out. A drill-down in the address is a link to it, and Back closes it.
 */
import {
  type AgentId,
  type ErrorCategory,
  type ErrorSeverity,
  errorCategories,
  errorSeverities,
} from '@agentdash/core/model';
import { agentParam, pageHash } from '../../ui/page-address';

/** A drill-down's failing calls: of one tool, one error category and severity, or one project (`in`). */
export interface DrillQuery {
  readonly tool?: string;
  readonly category?: ErrorCategory;
  readonly severity?: ErrorSeverity;
  readonly project?: string;
}

export interface AnalyticsState {
  readonly project: string;
  readonly agent: AgentId | '';
  readonly drill?: DrillQuery | undefined;
}

const isIn = <T extends string>(list: readonly T[], value: string | null): value is T =>
  value !== null && (list as readonly string[]).includes(value);

/** The state an address's query says; what it does not say, or says wrong, is the default (no filter). */
export function analyticsStateOf(query: string): AnalyticsState {
  const params = new URLSearchParams(query);
  const tool = params.get('tool');
  const category = params.get('category');
  const severity = params.get('severity');
  const where = params.get('in');
  const drill: DrillQuery | undefined = tool
    ? { tool }
    : isIn(errorCategories, category)
      ? { category, ...(isIn(errorSeverities, severity) ? { severity } : {}) }
      : where
        ? { project: where }
        : undefined;
  return { project: params.get('project') ?? '', agent: agentParam(params), ...(drill ? { drill } : {}) };
}

/** The page's address for a state: `#/analytics` without filters. */
export function analyticsHash(state: AnalyticsState): string {
  const params = new URLSearchParams();
  if (state.project !== '') params.set('project', state.project);
  if (state.agent !== '') params.set('agent', state.agent);
  const drill = state.drill;
  if (drill?.tool !== undefined) params.set('tool', drill.tool);
  if (drill?.category !== undefined) params.set('category', drill.category);
  if (drill?.severity !== undefined) params.set('severity', drill.severity);
  if (drill?.project !== undefined) params.set('in', drill.project);
  return pageHash('#/analytics', params);
}

/** A drill-down's title, wherever it was opened from (a bar, a tick, an address). */
export function drillTitle(drill: DrillQuery, projectLabel: (project: string) => string = (p) => p): string {
  if (drill.tool !== undefined) return `Failing ${drill.tool} calls`;
  if (drill.category !== undefined) return `Errors: ${drill.category}${drill.severity ? ` (${drill.severity})` : ''}`;
  return `Failing calls in ${projectLabel(drill.project ?? '')}`;
}
