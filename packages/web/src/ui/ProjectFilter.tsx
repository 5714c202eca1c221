import { useMemo } from 'react';
import { shortPath } from './format';
import { labelOf, projectLabels } from './project-labels';

/**
 * A select of the projects ('' = every project): every project the sessions list knows (`useFacets`), whatever is
 * chosen, so that another one can be picked straight from one (a list made from the chosen project's own answer held
 * only that one).
 */
export function ProjectFilter({
  value,
  onChange,
  projects = [],
}: {
  readonly value: string;
  readonly onChange: (p: string) => void;
  readonly projects: readonly string[] | undefined;
}) {
  // labels that tell the projects apart (one Gemini project hash under several homes)
  const labels = useMemo(() => projectLabels(projects), [projects]);
  return (
    <select
      className="select"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-label="Project"
      data-testid="filter-project"
    >
      <option value="">All projects</option>
      {/* a project chosen before the list came (or no longer listed) stays selectable */}
      {value !== '' && !projects.includes(value) && <option value={value}>{shortPath(value)}</option>}
      {projects.map((p) => (
        <option key={p} value={p}>
          {labelOf(labels, p)}
        </option>
      ))}
    </select>
  );
}
