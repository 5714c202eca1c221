import { useEffect, useMemo, useState } from 'react';
import { api } from '../data/client';
import { shortPath } from './format';
import { labelOf, projectLabels } from './project-labels';

/**
 * A select of the projects ('' = every project): every project the sessions list knows, whatever is chosen, so that
 * another one can be picked straight from one (a list made from the chosen project's own answer held only that one).
 */
export function ProjectFilter({ value, onChange }: { readonly value: string; readonly onChange: (p: string) => void }) {
  const [projects, setProjects] = useState<readonly string[]>([]);
  useEffect(() => {
    const ctl = new AbortController();
    api
      // facets cover the whole list whatever the page: one row is asked for
      .sessions({ limit: 1 }, ctl.signal)
      .then((r) => setProjects(r.facets.projects))
      .catch(() => {});
    return () => ctl.abort();
  }, []);
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
