import type { AgentId } from '@agentdash/core/model';
import { modelLabel } from '@agentdash/core/present';
import { useEffect, useMemo, useRef } from 'react';
import { useAgents } from '../../data/agents';
import type { SessionsResponse } from '../../data/types';
import { AgentFilter } from '../../ui/AgentFilter';
import { shortPath } from '../../ui/format';
import { FOCUS_SEARCH_EVENT, takeSearchRequest } from '../../ui/keys';
import { labelOf, projectLabels } from '../../ui/project-labels';
import { type Filters, isFiltered, NO_FILTERS } from './use-session-list';

export function SessionFilters({
  filters,
  onChange,
  facets,
}: {
  filters: Filters;
  onChange: (f: Filters) => void;
  facets: SessionsResponse['facets'] | undefined;
}) {
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const focus = (event: Event) => {
      search.current?.focus();
      event.preventDefault();
    };
    if (takeSearchRequest()) search.current?.focus();
    window.addEventListener(FOCUS_SEARCH_EVENT, focus);
    return () => window.removeEventListener(FOCUS_SEARCH_EVENT, focus);
  }, []);
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  // labels that tell the projects apart (two `…/entireio/cli` of two people's machines)
  const projectLabelsOf = useMemo(() => projectLabels(facets?.projects ?? []), [facets?.projects]);
  return (
    <div className="toolbar">
      <input
        ref={search}
        className="input search"
        type="search"
        // Short enough to read whole in a phone's box; the keys are said by the title and the shortcuts help.
        placeholder="Search messages, commands, output…"
        title="Search prompts, replies, commands and their output ( / or Ctrl+K )"
        aria-keyshortcuts="/ Control+K"
        value={filters.q}
        onChange={(e) => set({ q: e.target.value })}
        onKeyDown={(e) => e.key === 'Escape' && e.currentTarget.blur()}
        data-testid="search"
        aria-label="Search"
      />
      <AgentFilter
        value={filters.agent}
        // a version chosen that the new agent has no session of goes with the agent it was chosen for
        onChange={(agent) =>
          set({ agent, ...(agentHasVersion(facets, agent, filters.version) ? {} : { version: '' }) })
        }
        present={facets?.agents}
      />
      <select
        className="select wide-filter"
        value={filters.project}
        onChange={(e) => set({ project: e.target.value })}
        aria-label="Project"
        data-testid="filter-project"
      >
        <option value="">All projects</option>
        {agentValues(facets, filters.agent, 'projects', filters.project).map((p) => (
          <option key={p} value={p}>
            {labelOf(projectLabelsOf, p)}
          </option>
        ))}
      </select>
      <select
        className="select wide-filter"
        value={filters.model}
        onChange={(e) => set({ model: e.target.value })}
        aria-label="Model"
      >
        <option value="">All models</option>
        {agentValues(facets, filters.agent, 'models', filters.model).map((m) => (
          <option key={m} value={m}>
            {modelLabel(m)}
          </option>
        ))}
      </select>
      <select
        className="select wide-filter"
        value={filters.version}
        onChange={(e) => set(versionChosen(facets, e.target.value))}
        aria-label="Client version"
        data-testid="filter-version"
      >
        <option value="">All versions</option>
        <VersionOptions facets={facets} value={filters.version} agent={filters.agent} />
      </select>
      {/* One unit, labelled: two bare date fields read as "mm/dd/yyyy" twice, and wrapped apart. */}
      <fieldset className="date-range" aria-label="Started between" data-testid="date-range">
        <DateField
          label="From"
          name="From"
          value={filters.since}
          max={filters.until}
          onChange={(since) => set({ since })}
        />
        <DateField
          label="to"
          name="To"
          value={filters.until}
          min={filters.since}
          onChange={(until) => set({ until })}
        />
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          checked={filters.hasErrors}
          onChange={(e) => set({ hasErrors: e.target.checked })}
          data-testid="filter-errors"
        />
        Has errors
      </label>
      {filters.file !== '' && (
        // Set by a Files page's link (no field of its own): shown with its path, removed alone or by Clear.
        <span
          className="check"
          data-testid="filter-file"
          title={`Sessions whose file tools read or changed ${filters.file}`}
        >
          Touched <span className="badge neutral mono">{shortPath(filters.file)}</span>
          <button
            type="button"
            className="btn small ghost"
            aria-label="Remove the file filter"
            onClick={() => set({ file: '' })}
            data-testid="filter-file-remove"
          >
            ×
          </button>
        </span>
      )}
      {isFiltered(filters, filters.q.trim()) && (
        <button
          type="button"
          className="btn ghost"
          onClick={() => onChange({ ...NO_FILTERS, showEmpty: filters.showEmpty })}
        >
          Clear
        </button>
      )}
    </div>
  );
}

/** The agents with versions the version menu lists: the one chosen alone, else every one that has versions. */
function versionGroups(facets: SessionsResponse['facets'] | undefined, agent: string) {
  return (facets?.agents ?? []).filter((a) => a.versions.length > 0 && (agent === '' || a.agent === agent));
}

/** Whether `version` is '' or one of `agent`'s (every agent: ''); true until the facets come. */
function agentHasVersion(facets: SessionsResponse['facets'] | undefined, agent: string, version: string): boolean {
  if (version === '' || agent === '' || facets === undefined) return true;
  return facets.agents.some((a) => a.agent === agent && a.versions.includes(version));
}

/**
 * A menu's projects or models: once an agent is chosen, that agent's own (Codex's sessions use no Claude model; a
 * model of another agent chose no session); the one chosen stays listed though the agent has none. Every one when no
 * agent is chosen, or the server does not tell them by agent (an older team server).
 */
export function agentValues(
  facets: SessionsResponse['facets'] | undefined,
  agent: AgentId | '',
  key: 'models' | 'projects',
  chosen: string,
): readonly string[] {
  const all = facets?.[key] ?? [];
  const own = agent === '' ? undefined : facets?.agents.find((a) => a.agent === agent)?.[key];
  if (own === undefined) return all;
  return chosen !== '' && !own.includes(chosen) ? [chosen, ...own] : own;
}

/**
 * The filters an option of the version menu sets: under an agent's name (`agent:version`, see `VersionOptions`) the
 * agent too, so that Gemini CLI's `0.6.1` never lists Claude Code's `0.6.1` sessions; else the version alone.
 */
export function versionChosen(
  facets: SessionsResponse['facets'] | undefined,
  value: string,
): { version: string } | { agent: AgentId; version: string } {
  const colon = value.indexOf(':');
  const agent = colon < 0 ? undefined : facets?.agents.find((a) => a.agent === value.slice(0, colon));
  return agent === undefined ? { version: value } : { agent: agent.agent, version: value.slice(colon + 1) };
}

/**
 * The version menu's options: oldest first, under each agent's name when more than one agent has versions (Claude
 * Code's `2.1.3` and Gemini CLI's `0.6.1` are two series), valued `agent:version` there (choosing one chooses its
 * agent); the chosen agent's alone once one is chosen; a version chosen but no longer listed stays selectable.
 */
export function VersionOptions({
  facets,
  value,
  agent,
}: {
  facets: SessionsResponse['facets'] | undefined;
  value: string;
  agent: AgentId | '';
}) {
  const registry = useAgents() ?? [];
  const grouped = versionGroups(facets, agent);
  const listed = grouped.flatMap((a) => a.versions);
  const option = (v: string, key = v) => (
    <option key={key} value={key}>
      v{v}
    </option>
  );
  return (
    <>
      {value !== '' && !(grouped.length > 1 ? [] : listed).includes(value) && option(value)}
      {grouped.length > 1
        ? grouped.map(({ agent: id, versions }) => (
            <optgroup key={id} label={registry.find((a) => a.id === id)?.label ?? id}>
              {versions.map((v) => option(v, `${id}:${v}`))}
            </optgroup>
          ))
        : listed.map((v) => option(v))}
    </>
  );
}

/** One end of the date range: its visible label, the day (`YYYY-MM-DD` or ''), and the other end as its bound. */
function DateField(props: {
  label: string;
  name: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (day: string) => void;
}) {
  return (
    <label className="date-field">
      <span>{props.label}</span>
      <input
        className="input"
        type="date"
        value={props.value}
        min={props.min || undefined}
        max={props.max || undefined}
        onChange={(e) => props.onChange(e.target.value)}
        aria-label={props.name}
      />
    </label>
  );
}
